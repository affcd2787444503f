import type { paths } from "./fixtures/schema.js";
import type { Handler, HandlerContext, HandlerResult, RequestBody, ParamGroup } from "../../../templates/server/types.js";
type Chat = paths["/v1/chat/completions"]["post"];
type Del = paths["/v1/preview/models/{model_id}"]["delete"];
type Ck = paths["/v1/preview/models/{model_id}/checkpoints"]["get"];
type Sft = paths["/v1/preview/sft-training-jobs"]["post"];
type R1 = HandlerResult<Del>;
type B1 = RequestBody<Chat, "application/json">;
type B2 = RequestBody<Del>;
type P = ParamGroup<Ck, "path">; type Q = ParamGroup<Ck, "query">; type H = ParamGroup<Ck, "header">; type C = ParamGroup<Ck,"cookie">;
const a: R1 = { status: 204 };
const b: R1 = { status: 404, body: { error: { message: "x", type: "y" } } };
// @ts-expect-error
const c: R1 = { status: 200, body: {} };
const h: Handler<Chat> = (ctx) => ({ status: 200, stream: (async function* () { yield { id: "", object: "chat.completion.chunk" as const, created: 1, model: "m", choices: [] }; })() });
const s: Handler<Sft> = () => ({ status: 500, body: { error: { message: "x", type: "y" } } });
// @ts-expect-error
const s2: Handler<Sft> = () => ({ status: 500, body: { nope: 1 } });
export type Dump = [R1, B1, B2, P, Q, H, C, HandlerResult<Sft>];
