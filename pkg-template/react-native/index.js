export * from "./client.js";
