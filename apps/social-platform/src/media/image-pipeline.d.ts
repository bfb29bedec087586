/** One file to produce from an upload. Without a size it is the (re-encoded) original. */
export interface ImageVariant {
  name: string;
  /** Longest side in pixels; smaller images are never enlarged. */
  longestSide?: number;
  /** Crop to a centred square of this side. */
  square?: number;
}
export interface RenderedImage {
  name: string;
  data: Buffer;
  width: number;
  height: number;
  contentType: string;
  extension: string;
}
export interface ImageLimits {
  maxPixels: number;
}
/** What the upload really is, from its first bytes; anything but the accepted images is refused. */
export declare function detectImageType(data: Buffer): Promise<string>;
/**
 * Decodes an upload once per variant and writes every variant: rotated upright from
 * EXIF, metadata stripped, never enlarged. Checks the pixel count from the header
 * before any decoding, so a decompression bomb costs nothing.
 */
export declare function renderVariants(
  data: Buffer,
  variants: readonly ImageVariant[],
  limits: ImageLimits,
): Promise<RenderedImage[]>;
