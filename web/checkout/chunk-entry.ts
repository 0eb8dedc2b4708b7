/** The entry of every chunk bundle (vite.config.ts): the build points `wallet-checkout:chunk-content` at the chunk's module. */
import content from 'wallet-checkout:chunk-content';
import { registerChunk } from './chunk-registry';

registerChunk(content);
