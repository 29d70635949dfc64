// What React Native's native side puts into the JavaScript runtime before the bundle's first
// module runs, for the Hermes 0.12 VM of `hermes-engine-cli` (the newest Hermes VM on npm),
// which has less than the Hermes that React Native >= 0.74 ships. A Metro polyfill (a plain
// script, run before the module system): see metro.config.cjs.
//
// - `nativeLoggingHook`: the native logger that React Native's `console` (the
//   @react-native/js-polyfills console, also in this bundle) writes to; here the VM's `print`.
// - `TextEncoder` (with `encodeInto`) and `TextDecoder` (UTF-8 only): built into the Hermes of
//   React Native >= 0.74, absent from Hermes 0.12.
//
// Nothing else is added: WebSocket and fetch are passed to the client as options, and the rest
// of React Native's globals come from initialize-core.js, as React Native's InitializeCore does.
/* eslint-disable no-var */
(function (global) {
  "use strict";

  if (typeof global.nativeLoggingHook !== "function" && typeof global.print === "function") {
    global.nativeLoggingHook = function (message) {
      global.print(message);
    };
  }

  if (typeof global.TextEncoder === "function") return;

  function define(target, name, value) {
    Object.defineProperty(target, name, { value: value, writable: true, configurable: true, enumerable: false });
  }

  /** Writes the UTF-8 bytes of `text` into `bytes` while whole sequences fit; unpaired surrogates become U+FFFD. */
  function encodeInto(text, bytes) {
    var read = 0;
    var written = 0;
    var room = bytes.length;
    while (read < text.length) {
      var code = text.charCodeAt(read);
      var units = 1;
      if (code >= 0xd800 && code <= 0xdbff && read + 1 < text.length) {
        var low = text.charCodeAt(read + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          units = 2;
        }
      }
      if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
      var size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      if (written + size > room) break;
      if (size === 1) {
        bytes[written] = code;
      } else if (size === 2) {
        bytes[written] = 0xc0 | (code >> 6);
        bytes[written + 1] = 0x80 | (code & 0x3f);
      } else if (size === 3) {
        bytes[written] = 0xe0 | (code >> 12);
        bytes[written + 1] = 0x80 | ((code >> 6) & 0x3f);
        bytes[written + 2] = 0x80 | (code & 0x3f);
      } else {
        bytes[written] = 0xf0 | (code >> 18);
        bytes[written + 1] = 0x80 | ((code >> 12) & 0x3f);
        bytes[written + 2] = 0x80 | ((code >> 6) & 0x3f);
        bytes[written + 3] = 0x80 | (code & 0x3f);
      }
      read += units;
      written += size;
    }
    return { read: read, written: written };
  }

  function TextEncoder() {}
  define(TextEncoder.prototype, "encoding", "utf-8");
  define(TextEncoder.prototype, "encode", function (text) {
    var input = text === undefined ? "" : String(text);
    var bytes = new Uint8Array(input.length * 3);
    return bytes.slice(0, encodeInto(input, bytes).written);
  });
  define(TextEncoder.prototype, "encodeInto", function (text, bytes) {
    return encodeInto(String(text), bytes);
  });

  /** Decodes UTF-8; a malformed sequence becomes U+FFFD (or throws with `fatal`). */
  function TextDecoder(label, options) {
    var name = label === undefined ? "utf-8" : String(label).trim().toLowerCase();
    if (name !== "utf-8" && name !== "utf8" && name !== "unicode-1-1-utf-8") {
      throw new RangeError("TextDecoder: only utf-8 is supported, not " + name);
    }
    this.fatal = Boolean(options && options.fatal);
    this.ignoreBOM = Boolean(options && options.ignoreBOM);
  }
  define(TextDecoder.prototype, "encoding", "utf-8");
  define(TextDecoder.prototype, "decode", function (input) {
    if (input === undefined) return "";
    var bytes = ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      : new Uint8Array(input);
    var fatal = this.fatal;
    var units = [];
    var out = "";
    var i = 0;
    if (!this.ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    function bad() {
      if (fatal) throw new TypeError("The encoded data was not valid utf-8");
      units.push(0xfffd);
    }
    while (i < bytes.length) {
      var b = bytes[i];
      var size = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
      if (size === 0) {
        bad();
        i += 1;
        continue;
      }
      var code = size === 1 ? b : size === 2 ? b & 0x1f : size === 3 ? b & 0x0f : b & 0x07;
      var j = 1;
      for (; j < size; j++) {
        var next = bytes[i + j];
        if (next === undefined || (next & 0xc0) !== 0x80) break;
        code = (code << 6) | (next & 0x3f);
      }
      var overlong = (size === 3 && code < 0x800) || (size === 4 && code < 0x10000);
      if (j < size || overlong || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        bad();
        i += Math.max(j, 1);
        continue;
      }
      if (code >= 0x10000) {
        code -= 0x10000;
        units.push(0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff));
      } else {
        units.push(code);
      }
      i += size;
      if (units.length >= 4096) {
        out += String.fromCharCode.apply(null, units);
        units = [];
      }
    }
    return out + String.fromCharCode.apply(null, units);
  });

  global.TextEncoder = TextEncoder;
  global.TextDecoder = TextDecoder;
})(typeof globalThis !== "undefined" ? globalThis : this);
