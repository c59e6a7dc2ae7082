// runGemini between two turns of the official @google/genai client, pointed at the local Gemini stand-in.
import { GoogleGenAI } from "@google/genai";
import { mockProvidersUrl, report, weatherToolkit } from "./weather-toolkit.mjs";

const toolkit = weatherToolkit();
// The stand-in serves the v1beta routes (the ones function calling is documented on).
const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: mockProvidersUrl(), apiVersion: "v1beta" } });
const model = "gemini-2.5-flash";
const contents = [{ role: "user", parts: [{ text: "What is the weather in Chennai?" }] }];
const config = { tools: toolkit.toGemini() };

const first = await ai.models.generateContent({ model, contents, config });
const reply = await toolkit.runGemini(first);
const second = await ai.models.generateContent({
  model,
  contents: [...contents, first.candidates[0].content, reply],
  config,
});
report({ calls: first.functionCalls.map((call) => call.name), answer: second.text });
