import { AppError, errorMessage } from '@repo/server-kit';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type FormatEnum, type SharpOptions } from 'sharp';
import { appError } from '../error-catalogue.ts';

/** Formats accepted as input, decided by magic bytes only. */
const ACCEPTED_MIME_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

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

interface OutputFormat {
  format: keyof FormatEnum;
  contentType: string;
  extension: string;
  options: Record<string, unknown>;
}

const JPEG: OutputFormat = {
  format: 'jpeg',
  contentType: 'image/jpeg',
  extension: 'jpg',
  options: { quality: 82, progressive: true },
};
const PNG: OutputFormat = { format: 'png', contentType: 'image/png', extension: 'png', options: {} };
// GIF (first frame) and AVIF are re-encoded as WebP: far smaller than GIF, far faster to encode than AVIF.
const WEBP: OutputFormat = { format: 'webp', contentType: 'image/webp', extension: 'webp', options: { quality: 80 } };

/** What the upload really is, from its first bytes; anything but the accepted images is refused. */
export async function detectImageType(data: Buffer): Promise<string> {
  if (data.length === 0) throw appError('empty_file', 'The uploaded file is empty.');
  const type = await fileTypeFromBuffer(data);
  if (!type || !ACCEPTED_MIME_TYPES.has(type.mime)) {
    throw appError(
      'unsupported_image_type',
      `The file is ${type ? `a ${type.mime} file` : 'not an image'}; upload a JPEG, PNG, WebP, GIF or AVIF image.`,
    );
  }
  return type.mime;
}

/**
 * Decodes an upload once per variant and writes every variant: rotated upright from
 * EXIF, metadata stripped, never enlarged. Checks the pixel count from the header
 * before any decoding, so a decompression bomb costs nothing.
 */
export async function renderVariants(
  data: Buffer,
  variants: readonly ImageVariant[],
  limits: ImageLimits,
): Promise<RenderedImage[]> {
  const mime = await detectImageType(data);
  const input: SharpOptions = { limitInputPixels: limits.maxPixels, failOn: 'warning', autoOrient: true };
  const metadata = await sharp(data, input)
    .metadata()
    .catch((error: unknown) => {
      throw undecodable(error);
    });
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > limits.maxPixels) {
    throw appError(
      'image_too_large',
      `The image is ${metadata.width}×${metadata.height} pixels; at most ${limits.maxPixels.toLocaleString('en')} pixels are accepted.`,
    );
  }
  const output = mime === 'image/jpeg' ? JPEG : mime === 'image/png' ? PNG : WEBP;
  try {
    return await Promise.all(variants.map((variant) => renderOne(data, input, variant, output)));
  } catch (error) {
    throw undecodable(error);
  }
}

async function renderOne(
  data: Buffer,
  input: SharpOptions,
  variant: ImageVariant,
  output: OutputFormat,
): Promise<RenderedImage> {
  let pipeline = sharp(data, input);
  if (variant.square) {
    pipeline = pipeline.resize({ width: variant.square, height: variant.square, fit: 'cover', position: 'attention' });
  } else if (variant.longestSide) {
    pipeline = pipeline.resize({
      width: variant.longestSide,
      height: variant.longestSide,
      fit: 'inside',
      withoutEnlargement: true,
    });
  }
  const { data: encoded, info } = await pipeline
    .toFormat(output.format, output.options)
    .toBuffer({ resolveWithObject: true });
  return {
    name: variant.name,
    data: encoded,
    width: info.width,
    height: info.height,
    contentType: output.contentType,
    extension: output.extension,
  };
}

function undecodable(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const reason = errorMessage(error);
  if (/pixel limit/i.test(reason)) {
    return appError('image_too_large', 'The image has more pixels than accepted.');
  }
  return appError('invalid_image', 'The image is damaged or truncated and could not be decoded.', {
    cause: error,
  });
}
