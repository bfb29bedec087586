export declare const notificationMethods: import('./registry.ts').ApiMethod[];
