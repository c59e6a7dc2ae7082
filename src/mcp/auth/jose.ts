import type * as Jose from "jose" with { "resolution-mode": "import" };

/** jose's module: the functions the resource server uses. */
export type JoseModule = typeof Jose;

let loaded: JoseModule | undefined;

/**
 * `jose`, loaded when the first server with `auth` is made (never by `toolnexus` or by a server
 * without `auth`). It is an ES module, which Node 20.19 and later (22.12 and later) load with
 * `require`.
 */
export function jose(): JoseModule {
  if (loaded !== undefined) return loaded;
  try {
    return (loaded = require("jose") as JoseModule);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_REQUIRE_ESM") throw error;
    throw new Error(
      `auth validates access tokens with jose, an ES module this Node.js (${process.version}) cannot require: ` +
        "run Node.js 20.19 or later (22.12 or later on Node 22), as toolnexus requires.",
      { cause: error },
    );
  }
}
