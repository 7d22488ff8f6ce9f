import type { FastifyInstance, RouteOptions } from "fastify";
import { z } from "zod";
import { API_KEY_LIMITS } from "../../../contracts/api-keys";
import { apiErrorSchema } from "../../../contracts/errors";
import {
  licenseRefusalSchema,
  verifiedLicenseSchema,
  verifyLicenseSchema,
} from "../../../contracts/licenses";
import { cancelMembershipSchema, memberSchema, membersPageSchema } from "../../../contracts/memberships";
import { sellerProductDetailSchema, sellerProductSchema } from "../../../contracts/products";
import {
  apiInvoicePageSchema,
  apiInvoiceSchema,
  apiProductListSchema,
  apiSalePageSchema,
  apiSaleSchema,
} from "../../../contracts/seller-api";
import { EXPORT_API_KINDS, exportApiPageSchemas } from "../../../contracts/store-export";
import { LICENSE_VERIFY_PATH } from "../licenses";

declare module "fastify" {
  interface FastifyContextConfig {
    /** How a seller API route is described in `/api/v1/openapi.json` (only routes with it are listed). */
    openapi?: OperationDocs;
  }
}

export interface OperationDocs {
  operationId: string;
  summary: string;
  description?: string;
  /** Error statuses it can answer besides those every keyed route can (400, 401, 429). */
  errors?: number[];
  /** False for a public route: no key. */
  keyed?: boolean;
  /** A route answering a file rather than JSON: its media type. */
  produces?: "application/pdf";
}

interface RouteSchemas {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  response?: Record<number, z.ZodType>;
}

export interface DocumentedRoute {
  method: string;
  url: string;
  schema: RouteSchemas;
  docs: OperationDocs;
}

/**
 * Collects the routes a scope registers from now on that carry `config.openapi`, with their zod
 * schemas: the document is made from the very schemas that validate and serialize, so it cannot drift.
 */
export function documentRoutes(scope: FastifyInstance): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  scope.addHook("onRoute", (route: RouteOptions) => {
    const docs = route.config?.openapi;
    const methods = ([] as string[]).concat(route.method).filter((method) => method !== "HEAD");
    if (!docs) return;
    for (const method of methods) {
      routes.push({ method, url: route.url, schema: (route.schema ?? {}) as RouteSchemas, docs });
    }
  });
  return routes;
}

/** Named shapes, listed once under components and referred to by `$ref`. */
const responseComponents = z.registry<{ id: string }>();
responseComponents.add(apiErrorSchema, { id: "Error" });
responseComponents.add(sellerProductSchema, { id: "Product" });
responseComponents.add(sellerProductDetailSchema, { id: "ProductDetail" });
responseComponents.add(apiProductListSchema, { id: "ProductList" });
responseComponents.add(apiSaleSchema, { id: "Sale" });
responseComponents.add(apiSalePageSchema, { id: "SalePage" });
responseComponents.add(verifiedLicenseSchema, { id: "LicenseVerified" });
responseComponents.add(licenseRefusalSchema, { id: "LicenseRefusal" });
responseComponents.add(memberSchema, { id: "Membership" });
responseComponents.add(membersPageSchema, { id: "MembershipPage" });
responseComponents.add(apiInvoiceSchema, { id: "Invoice" });
responseComponents.add(apiInvoicePageSchema, { id: "InvoicePage" });
// ExportProductsPage, ExportDiscountCodesPage…: the store archive's records (contracts/store-archive.ts).
for (const kind of EXPORT_API_KINDS) {
  const name = kind.replace(/(^|-)(\w)/g, (_match, _dash, letter: string) => letter.toUpperCase());
  responseComponents.add(exportApiPageSchemas[kind], { id: `Export${name}Page` });
}
const requestComponents = z.registry<{ id: string }>();
requestComponents.add(verifyLicenseSchema, { id: "LicenseVerifyRequest" });
requestComponents.add(cancelMembershipSchema, { id: "MembershipCancelRequest" });

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function componentId(registry: typeof responseComponents, schema: z.ZodType): string {
  const id = registry.get(schema)?.id;
  if (!id) throw new Error("Every seller API body and answer must be a named component (openapi.ts)");
  return id;
}

function componentSchemas(registry: typeof responseComponents, io: "input" | "output") {
  const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]),
  );
}

/** A params or query object as OpenAPI parameters, one per property. */
function parametersOf(schema: z.ZodType | undefined, where: "path" | "query") {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input" }) as {
    properties?: Record<string, { description?: string; [key: string]: unknown }>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    ...(description ? { description } : {}),
    schema: property,
  }));
}

const ERROR_MEANINGS: Record<number, string> = {
  400: "The request is not valid: the message says which parameter and why.",
  401: "No API key, a malformed Authorization header, or a key that is unknown or revoked.",
  404: "Not found: it does not exist or belongs to another seller.",
  409: "Refused in its current state (for example, already refunded).",
  429: `Rate limited (${API_KEY_LIMITS.requestsPerMinute} calls a minute per key): wait as Retry-After says.`,
};
const errorResponse = (status: number) => ({
  description: ERROR_MEANINGS[status] ?? "Refused.",
  content: { "application/json": { schema: ref("Error") } },
});

/** What a success answers: a file of its media type, or the JSON of a named component. */
function successContent(docs: OperationDocs, answer: z.ZodType | undefined) {
  if (docs.produces) {
    return { content: { [docs.produces]: { schema: { type: "string", contentMediaType: docs.produces } } } };
  }
  if (!answer) return {};
  return { content: { "application/json": { schema: ref(componentId(responseComponents, answer)) } } };
}

function operationOf(route: DocumentedRoute) {
  const { docs, schema } = route;
  const [status, answer] = Object.entries(schema.response ?? {})[0] ?? [];
  const keyed = docs.keyed !== false;
  const errors = [...new Set([400, ...(keyed ? [401, 429] : []), ...(docs.errors ?? [])])].sort(
    (a, b) => a - b,
  );
  return {
    operationId: docs.operationId,
    summary: docs.summary,
    ...(docs.description ? { description: docs.description } : {}),
    ...(keyed ? {} : { security: [] }),
    parameters: [...parametersOf(schema.params, "path"), ...parametersOf(schema.querystring, "query")],
    ...(schema.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref(componentId(requestComponents, schema.body)) } },
          },
        }
      : {}),
    responses: {
      [status ?? "200"]: { description: "Success.", ...successContent(docs, answer) },
      ...Object.fromEntries(errors.map((code) => [String(code), errorResponse(code)])),
    },
  };
}

/** The license check of features/licenses, registered there without zod route schemas: described here. */
const licenseVerifyOperation = {
  operationId: "verifyLicense",
  summary: "Verify a license key",
  description:
    "Public (no API key): whether a license key is valid for a product, for the seller's software. Takes JSON or a form (application/x-www-form-urlencoded); answers CORS for any origin. Refusals are `{ success: false, code, message }`.",
  security: [],
  requestBody: {
    required: true,
    content: {
      "application/json": { schema: ref("LicenseVerifyRequest") },
      "application/x-www-form-urlencoded": { schema: ref("LicenseVerifyRequest") },
    },
  },
  responses: {
    "200": {
      description: "The key is valid.",
      content: { "application/json": { schema: ref("LicenseVerified") } },
    },
    "4XX": {
      description: "Unknown key (or of another product), disabled, refunded, a bad request, or rate limited.",
      content: { "application/json": { schema: ref("LicenseRefusal") } },
    },
  },
};

/** The OpenAPI 3.1 document of the seller API, from the routes' own zod schemas. */
export function openApiDocument(appUrl: string, routes: DocumentedRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:(\w+)/g, "{$1}");
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route) };
  }
  paths[LICENSE_VERIFY_PATH] = { post: licenseVerifyOperation };
  return {
    openapi: "3.1.0",
    info: {
      title: "Flatfee seller API",
      version: "1",
      description:
        "Read your products, sales, memberships and invoices, refund a sale and reset its downloads, and export every record of your store (`/api/v1/export/{kind}`) from your own tools. Create a key in Settings → API keys and send it as `Authorization: Bearer ff_live_…`. Guide: docs/api.md.",
    },
    servers: [{ url: appUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "ff_live_ followed by 42 letters and digits",
          description: "An API key from Settings → API keys. Each key acts for its seller only.",
        },
      },
      schemas: {
        ...componentSchemas(responseComponents, "output"),
        ...componentSchemas(requestComponents, "input"),
      },
    },
  };
}
