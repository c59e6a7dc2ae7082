import { Writable } from "node:stream";

type Write = (...args: unknown[]) => boolean;

/** The diversion in force, shared by everyone holding it (the CLI and serveMcp both take it). */
let diversion: { original: Write; diverter: Write; holders: number } | undefined;

/**
 * While stdout carries the MCP protocol over stdio, nothing else may reach it: a stray line
 * (or a partial one, glued to the next message) breaks the client. This sends everything
 * written to `process.stdout` to stderr until `restore()`: `process.stdout.write` itself and
 * so every `console` method (log, dir, table, trace, group, count, time...), which all write
 * through it, plus anything piped into stdout. `protocol` is the one stream that still reaches
 * the real stdout. Writes straight to file descriptor 1 (`fs.writeSync(1, ...)`, a child
 * process with inherited stdio) bypass `process.stdout` and cannot be diverted.
 */
export function divertStdout(): { protocol: Writable; restore: () => void } {
  if (diversion === undefined) {
    const original = process.stdout.write as unknown as Write;
    const diverter: Write = function (this: unknown, ...args) {
      // Still reachable after restore() when someone wrapped it meanwhile: then it passes writes through.
      if (diversion?.diverter !== diverter) return original.apply(process.stdout, args);
      return (process.stderr.write as unknown as Write).apply(process.stderr, args);
    };
    diversion = { original, diverter, holders: 0 };
    process.stdout.write = diverter as unknown as typeof process.stdout.write;
  }
  const current = diversion;
  current.holders++;

  // Hands each message to the real stdout at once (so it is there even if the process exits
  // right after) and keeps stdout's own backpressure: a full pipe delays the next message.
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (current.original.call(process.stdout, chunk)) callback();
      else process.stdout.once("drain", () => callback());
    },
  });

  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (--current.holders > 0 || diversion !== current) return;
    diversion = undefined;
    if ((process.stdout.write as unknown) === current.diverter)
      process.stdout.write = current.original as unknown as typeof process.stdout.write;
  };
  return { protocol, restore };
}
