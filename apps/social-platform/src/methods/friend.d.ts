export declare const friendMethods: import('./registry.ts').ApiMethod[];
