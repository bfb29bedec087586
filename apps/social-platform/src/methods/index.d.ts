import { MethodRegistry } from './registry.ts';
/** Every method of api.php. */
export declare const createMethodRegistry: () => MethodRegistry;
