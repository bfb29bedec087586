import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';

/** Public identifiers: a type prefix and 12 random bytes, e.g. `acc_5Hq…`. */
export const newId = (type: 'acc' | 'key' | 'flt' | 'tgt' | 'msg' | 'dlv') => `${type}_${bs58.encode(randomBytes(12))}`;
