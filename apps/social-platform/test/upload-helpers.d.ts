/** A multipart/form-data body as api.php receives it from an app. */
export declare function multipartBody(
  fields: Record<string, string>,
  file?: {
    field?: string;
    name: string;
    type: string;
    data: Buffer;
  },
): Promise<{
  payload: Buffer;
  headers: Record<string, string>;
}>;
export declare const solidJpeg: (width: number, height: number) => Promise<Buffer<ArrayBuffer>>;
/** A JPEG stored `width`×`height` whose EXIF says "rotate 90° clockwise to display". */
export declare const rotatedJpeg: (width: number, height: number) => Promise<Buffer<ArrayBuffer>>;
/**
 * A small file claiming a `side`×`side` grey PNG: a decompression bomb's header. Its one
 * IDAT holds the first rows only; a decoder that trusted the header would allocate it all.
 */
export declare function pngBomb(side: number): Buffer;
