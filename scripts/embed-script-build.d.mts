// Types for embed-script-build.mjs (plain JavaScript, as vite.config.ts loads it).
import type { Plugin } from "vite";

export const EMBED_SCRIPT_FILE_NAME: "embed.js";
/** The minified IIFE of src/web/embed/embed.ts. */
export function buildEmbedScript(): Promise<string>;
/** Writes embed.js into the web build's output. */
export function embedScriptPlugin(): Plugin;
