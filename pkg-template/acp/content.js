// ACP prompt blocks → the package's content parts (`send()`), and the prompt's plain text (for
// slash commands and titles).

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** ACP prompt blocks → `send()` content parts (text, image, resource, resource_link). */
export function promptToContent(blocks) {
  const parts = [];
  for (const block of blocks ?? []) {
    if (block.type === "text") parts.push({ type: "text", text: block.text });
    else if (block.type === "image" && IMAGE_TYPES.has(block.mimeType)) {
      parts.push({ type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } });
    } else if (block.type === "resource") {
      const { uri, text, mimeType } = block.resource ?? {};
      if (typeof text === "string") parts.push({ type: "text", text: `<resource uri="${uri}">\n${text}\n</resource>` });
      else parts.push({ type: "text", text: `[binary resource ${uri}${mimeType ? ` (${mimeType})` : ""}]` });
    } else if (block.type === "resource_link") {
      parts.push({ type: "text", text: `[${block.name ?? block.uri}](${block.uri})` });
    }
  }
  return parts;
}

/** The prompt's plain text (for slash commands and titles). */
export function promptText(blocks) {
  return (blocks ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("")
    .trim();
}
