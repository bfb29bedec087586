export declare const photoMethods: import('./registry.ts').ApiMethod[];
