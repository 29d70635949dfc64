// The portable `/client` surface, shared by every platform loader.
export { createTranscriptAccumulator, extractStreamTextDelta } from "./transcript.js";
