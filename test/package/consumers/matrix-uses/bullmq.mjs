// A call through toolnexus/bullmq: the toolkit's executor puts it on a queue of the test's
// redis-server, a tool worker takes it and answers. The calling toolkit's own tool would answer
// otherwise, so the answer says where the call ran.
import { defineTool, Toolkit } from "toolnexus";
import { queueExecutor, startToolWorker } from "toolnexus/bullmq";
import { report, required } from "./weather-toolkit.mjs";

const connection = { host: "127.0.0.1", port: Number(required("REDIS_PORT")) };
const queueName = required("QUEUE_NAME");
const weather = (where) =>
  defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: ({ city }) => `sunny in ${city}, answered by the ${where}`,
  });

const worker = await startToolWorker(new Toolkit([weather("worker")]), { connection, queueName });
const executor = queueExecutor({ connection, queueName });
const result = await new Toolkit([weather("caller")], { executor }).execute("get_weather", { city: "Chennai" });
await executor.close();
await worker.close();
report({ result });
