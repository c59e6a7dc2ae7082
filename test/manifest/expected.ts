/**
 * The input schemas the types fixture's tools have with its committed manifest, whether the
 * fixture was compiled with decorator metadata (fixture-tools.test.ts) or without it
 * (no-metadata.test.ts): the manifest makes them the same.
 */
export const EXPECTED_SCHEMAS: Record<string, unknown> = {
  current: {
    type: "object",
    properties: {
      city: { type: "string", description: 'The city, e.g. "Chennai".' },
      units: {
        type: "string",
        description: "Unit system of the answer.",
        enum: ["metric", "imperial"],
        default: "metric",
      },
    },
    required: ["city"],
    additionalProperties: false,
  },
  forecast_days: {
    type: "object",
    properties: {
      city: { type: "string" },
      days: { type: "number", description: "How many days ahead." },
      hours: {
        type: "array",
        description: "Hours of the day to include.",
        default: [9, 12, 18],
        items: { type: "number" },
      },
      from: { type: "string", description: "Start of the forecast.", format: "date-time" },
    },
    required: ["city"],
    additionalProperties: false,
  },
  ping: {
    type: "object",
    properties: {
      loud: { type: "boolean", description: "Shout the answer.", default: false },
      // @Param("times", { minimum, maximum }) adds to the manifest's literal union.
      times: { type: "integer", enum: [1, 2, 3], minimum: 1, maximum: 3 },
    },
    additionalProperties: false,
  },
  place_order: {
    type: "object",
    properties: {
      // class-validator's constraints (format, integer, minimum, maxLength, minItems) and the
      // TypeScript types and JSDoc (descriptions) together, agreeing.
      customerEmail: { type: "string", description: "Where the receipt goes.", format: "email" },
      lines: {
        type: "array",
        description: "What to order.",
        items: {
          type: "object",
          properties: {
            sku: { type: "string", description: "Stock-keeping unit." },
            quantity: { type: "integer", description: "How many, in whole units.", minimum: 1, maximum: 99 },
            wrap: { type: "string", description: "Gift wrapping.", enum: ["paper", "box"] },
          },
          required: ["sku", "quantity"],
          additionalProperties: false,
        },
        minItems: 1,
      },
      note: { type: "string", description: "A note for the courier.", maxLength: 200 },
      // internalFlag has no validator: not an argument, as with class-validator's whitelist.
    },
    required: ["customerEmail", "lines"],
    additionalProperties: false,
  },
  checkCoupon: {
    type: "object",
    properties: {
      coupon: {
        type: "object",
        description: "The coupon to check.",
        properties: {
          code: { type: "string", description: "Code printed on the coupon." },
          percent: { type: "number", description: "Percent off.", default: 10, maximum: 100 },
        },
        required: ["code"],
        additionalProperties: false,
      },
    },
    required: ["coupon"],
    additionalProperties: false,
  },
};
