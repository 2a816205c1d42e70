export * from './index.cjs';
import * as toolcall from './index.cjs';
export default toolcall;
