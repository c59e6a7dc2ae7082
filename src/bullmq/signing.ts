import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { errorResult } from "../runtime/result";
import { isObject, type ToolResult } from "../core/types";
import { parseJson, type CallJobData } from "./job";

/**
 * A secret shared by the queue executors and the workers: a string (its UTF-8 bytes) or a Buffer, at least 32 bytes.
 */
export type SigningKey = string | Uint8Array;

/** HMAC-SHA256 keys shorter than its own output are guessable in principle: none are taken. */
export const MIN_SIGNING_KEY_BYTES = 32;

/**
 * A signed call's job data: the call as the exact JSON text that was signed (the worker reads
 * that text, never a re-serialization of it), and the signature over it.
 */
export interface SignedCallJob {
  signed: string;
  signature: string;
}

/** Where a job stands: the signature binds the call to it, so that a copy elsewhere is refused. */
export interface JobPlace {
  prefix: string;
  queueName: string;
  jobId: string;
}

/** Why a worker with a key did not run a job. */
export type SignatureRefusal = "missing" | "invalid";

/** The format and algorithm of the only signature there is; a signature without it is refused. */
const SIGNATURE_TAG = "v1.hmac-sha256.";

/** The key `value` names, or a TypeError saying what to pass. */
export function signingKeyOf(where: string, value: unknown): KeyObject {
  let bytes: Buffer;
  if (typeof value === "string") bytes = Buffer.from(value, "utf8");
  else if (value instanceof Uint8Array) bytes = Buffer.from(value);
  else throw new TypeError(`${where}: signingKey must be a string or a Buffer (got ${describe(value)}).${MAKE_ONE}`);
  if (bytes.length < MIN_SIGNING_KEY_BYTES)
    throw new TypeError(
      `${where}: signingKey must be at least ${MIN_SIGNING_KEY_BYTES} bytes (got ${bytes.length}): a short key can ` +
        `be guessed.${MAKE_ONE}`,
    );
  // A copy: a Buffer changed by its owner later does not change the key.
  return createSecretKey(bytes);
}

/** The keys a worker accepts: one key, or several while keys are rotated. */
export function signingKeysOf(where: string, value: unknown): KeyObject[] {
  if (!Array.isArray(value)) return [signingKeyOf(where, value)];
  if (value.length === 0)
    throw new TypeError(
      `${where}: signingKey is an empty list: pass the key the queue executors sign with (or several while rotating ` +
        "keys).",
    );
  return value.map((key: unknown, index) => signingKeyOf(`${where} (signingKey[${index}])`, key));
}

const MAKE_ONE =
  " Make one with `openssl rand -base64 32` and give the same key to the queue executors and the workers.";

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value;
}

/** `data` signed for the job at `place`. Throws what JSON.stringify throws (BullMQ would too). */
export function signCallJob(data: CallJobData, place: JobPlace, key: KeyObject): SignedCallJob {
  const signed = JSON.stringify(data);
  return { signed, signature: SIGNATURE_TAG + mac(key, place, signed).toString("base64url") };
}

/**
 * What a job's data says the call is, as a worker may read it: with `keys`, only a signature
 * one of them made for this very job lets the call through; without, a signed call is read as
 * it is (there is nothing to check it with) and so is an unsigned one.
 */
export function openCallJob(
  value: unknown,
  place: JobPlace,
  keys: readonly KeyObject[] | undefined,
): { data: unknown } | { refused: SignatureRefusal } {
  const signed = isObject(value) && typeof value.signed === "string" ? value.signed : undefined;
  if (keys === undefined) return { data: signed === undefined ? value : parseJson(signed) };
  if (!isObject(value) || value.signature === undefined) return { refused: "missing" };
  const { signature } = value;
  if (signed === undefined || typeof signature !== "string" || !signature.startsWith(SIGNATURE_TAG))
    return { refused: "invalid" };
  const given = Buffer.from(signature.slice(SIGNATURE_TAG.length), "base64url");
  const matches = keys.some((key) => {
    const expected = mac(key, place, signed);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { data: parseJson(signed) } : { refused: "invalid" };
}

/**
 * The HMAC over the job's place and the call's text. The place is JSON (its strings escaped,
 * so it holds no newline), ended by one: nothing of the call's text can pass for part of it.
 */
function mac(key: KeyObject, place: JobPlace, signed: string): Buffer {
  const header = JSON.stringify(["toolnexus.call", 1, place.prefix, place.queueName, place.jobId]);
  return createHmac("sha256", key).update(`${header}\n`).update(signed).digest();
}

/**
 * What a caller is told of a job refused for its signature: why, and what to do, with nothing of the call itself (not
 * even whether its tool exists here).
 */
export function refusedJob(jobId: string, refusal: SignatureRefusal): ToolResult {
  const why =
    refusal === "missing"
      ? "it carries no signature, and this worker runs signed calls only. Give the queue executor that sends these " +
        "calls the workers' signingKey."
      : "its signature is invalid: it was made with a key this worker does not accept, or the job was changed, or " +
        "copied to another job or queue, after it was signed.";
  return errorResult("execution_failed", `Job ${jobId} was refused, and nothing was run: ${why}`, {
    signature: refusal,
  });
}
