export { type CzdsFault, CzdsSimControl, DEFAULT_CZDS_TLDS } from './control.ts';
export { czdsApiSimPlugin, czdsAuthSimPlugin } from './plugin.ts';
export { renderZoneFile } from './render.ts';
