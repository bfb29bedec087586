import type { ImageVariant } from '../media/image-pipeline.ts';
/** The seven files of an album photo, named as photo.addPhoto returns them. */
export declare const PHOTO_VARIANTS: readonly ImageVariant[];
/** The files of a profile picture (the User record's photo_* fields). */
export declare const PROFILE_VARIANTS: readonly ImageVariant[];
