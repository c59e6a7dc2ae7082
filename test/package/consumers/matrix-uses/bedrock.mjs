// runBedrock between two turns of the official BedrockRuntimeClient (Converse), pointed at the local Converse stand-in.
import { BedrockRuntimeClient, ConverseCommand } from "@aws-sdk/client-bedrock-runtime";
import { report, required, weatherToolkit } from "./weather-toolkit.mjs";

const toolkit = weatherToolkit();
const client = new BedrockRuntimeClient({
  region: "us-east-1",
  endpoint: required("CONVERSE_URL"),
  credentials: { accessKeyId: "AKIDTESTTEST", secretAccessKey: "test-secret" },
});
const modelId = "anthropic.claude-sonnet-4-5-v1:0";
const messages = [{ role: "user", content: [{ text: "What is the weather in Chennai?" }] }];
const toolConfig = toolkit.toBedrock();

const first = await client.send(new ConverseCommand({ modelId, messages, toolConfig }));
const reply = await toolkit.runBedrock(first);
const second = await client.send(
  new ConverseCommand({ modelId, messages: [...messages, first.output.message, reply], toolConfig }),
);
client.destroy();
report({ stopReason: first.stopReason, answer: second.output.message.content.map((block) => block.text).join("") });
