// A toolkit's calls traced through @opentelemetry/api: the tracer provider registered here
// records the span each call starts (no SDK needed to see what toolnexus asks the API for).
const { trace } = require("@opentelemetry/api");
const { defineTool, Toolkit } = require("toolnexus");

const spans = [];
function startSpan(name, options) {
  const span = { name, kind: options?.kind, attributes: { ...options?.attributes }, ended: false };
  spans.push(span);
  return {
    isRecording: () => true,
    setAttribute: (key, value) => void (span.attributes[key] = value),
    setAttributes: (attributes) => void Object.assign(span.attributes, attributes),
    setStatus: (status) => void (span.status = status),
    end: () => void (span.ended = true),
    spanContext: () => ({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1 }),
    addEvent() {},
    addLink() {},
    addLinks() {},
    recordException() {},
    updateName() {},
  };
}
trace.setGlobalTracerProvider({
  getTracer: () => ({
    startSpan,
    startActiveSpan() {
      throw new Error("toolnexus was expected to call startSpan");
    },
  }),
});

const toolkit = new Toolkit([
  defineTool({ name: "get_weather", description: "Current weather", execute: () => "sunny" }),
]);
toolkit
  .execute("get_weather", {}, { callId: "call_1" })
  .then((result) => console.log(JSON.stringify({ result, spans })));
