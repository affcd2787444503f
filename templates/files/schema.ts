/**
 * Stand-in for the `schema.ts` that openapi-typescript writes into every output folder, so the file templates beside
 * it type-check and run in specforge's repository: what specforge makes of test/fixtures/templates/stand-in.yaml (a
 * small pet store; test/templates/files/stand-in.test.ts keeps the two the same). Never copied into an output.
 */

export interface paths {
  "/pets": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List pets */
    get: operations["listPets"];
    put?: never;
    /** Create a pet */
    post: operations["createPet"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/pets/{petId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Find a pet */
    get: operations["getPet"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  "pet.adopted": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pet adopted
     * @description Sent when a pet finds a home.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: {
        content: {
          "application/json": components["schemas"]["PetAdopted"];
        };
      };
      responses: {
        /** @description Received. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    NewPet: {
      name: string;
      tag?: string;
    };
    Pet: components["schemas"]["NewPet"] & {
      id: number;
    };
    PetPage: {
      data: components["schemas"]["Pet"][];
      has_more: boolean;
      last_id?: string | null;
    };
    PetAdopted: {
      /** @constant */
      type: "pet.adopted";
      pet: components["schemas"]["Pet"];
    };
    Error: {
      message: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listPets: {
    parameters: {
      query?: {
        after?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of pets. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["PetPage"];
        };
      };
    };
  };
  createPet: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["NewPet"];
      };
    };
    responses: {
      /** @description The new pet. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Pet"];
        };
      };
      /** @description The pet is not valid. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getPet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        petId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The pet. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Pet"];
        };
      };
      /** @description No such pet. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
}
