/**
 * Placeholder until ../../openapi.yaml exists. `npm run -w @parley/sdk generate` replaces this
 * file with the types openapi-typescript derives from the contract; never edit it by hand.
 */

export interface paths {}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
