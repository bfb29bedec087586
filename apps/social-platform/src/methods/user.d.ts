export declare const userMethods: import('./registry.ts').ApiMethod[];
