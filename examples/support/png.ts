/**
 * A minimal PNG encoder for the examples (RGB, 8 bits per channel, no filtering): enough to
 * draw a chart without an image library. The pixels are deflated with Node's zlib.
 */
import { deflateSync } from "node:zlib";

export type Rgb = readonly [number, number, number];

/** A canvas of `width` × `height` pixels, white, that can fill rectangles and encode itself as PNG. */
export class Canvas {
  readonly #pixels: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.#pixels = Buffer.alloc(width * height * 3, 0xff);
  }

  fillRect(x: number, y: number, width: number, height: number, [r, g, b]: Rgb): void {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + height); row++) {
      for (let column = Math.max(0, x); column < Math.min(this.width, x + width); column++) {
        const at = (row * this.width + column) * 3;
        this.#pixels[at] = r;
        this.#pixels[at + 1] = g;
        this.#pixels[at + 2] = b;
      }
    }
  }

  toPng(): Buffer {
    // Each scanline starts with its filter type: 0, none.
    const raw = Buffer.alloc((this.width * 3 + 1) * this.height);
    for (let row = 0; row < this.height; row++)
      this.#pixels.copy(raw, row * (this.width * 3 + 1) + 1, row * this.width * 3, (row + 1) * this.width * 3);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter method, no interlace
    return Buffer.concat([
      PNG_SIGNATURE,
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(raw)),
      chunk("IEND", Buffer.alloc(0)),
    ]);
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
