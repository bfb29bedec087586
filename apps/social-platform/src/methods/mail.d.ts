export declare const mailMethods: import('./registry.ts').ApiMethod[];
