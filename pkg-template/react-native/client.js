export { init } from "./load.js";
export * from "../lib/client.js";
