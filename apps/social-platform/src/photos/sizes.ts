import type { ImageVariant } from '../media/image-pipeline.ts';

/** The seven files of an album photo, named as photo.addPhoto returns them. */
export const PHOTO_VARIANTS: readonly ImageVariant[] = [
  { name: 'original' },
  { name: '75px', longestSide: 75 },
  { name: '100px', longestSide: 100 },
  { name: '150px', longestSide: 150 },
  { name: '240px', longestSide: 240 },
  { name: '500px', longestSide: 500 },
  { name: '1024px', longestSide: 1024 },
];

/** The files of a profile picture (the User record's photo_* fields). */
export const PROFILE_VARIANTS: readonly ImageVariant[] = [
  { name: 'original' },
  { name: '50px', longestSide: 50 },
  { name: '50px_square', square: 50 },
  { name: '120px', longestSide: 120 },
];
