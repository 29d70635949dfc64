// The operation codes of the WebAssembly bindings (src/js/session.rs `op`,
// src/js/transcript.rs `op`, `NEW_IDS` and `TOOL_CALL`): one entry point per class takes a code instead of a
// method per operation, which keeps the glue and the module small. Keep both sides in step.

// SessionMachine.run(op, id, text, extra, number, now)
export const OPEN = 0;
export const FRAME = 1;
export const CLOSED = 2;
export const ERROR = 3;
export const TICK = 4;
export const BEGIN = 5;
export const SEND = 6;
export const ABORT = 7;
export const LIST_MESSAGES = 8;
export const LIST_MODELS = 9;
export const UPDATE_MODEL = 10;
export const REMOVE_QUEUED_MESSAGE = 11;
export const CHANGE_DEVICE_STATE = 12;
export const GET_DEVICE_STATUS = 13;
export const SET_DEVICE_STATUS_LISTENING = 14;
export const RECOVER_PENDING_APPROVALS = 15;
export const SEND_RAW = 16;
export const SEND_COMMAND = 17;
export const SEND_COMMAND_WITH_PREDICATE = 18;
export const MANAGEMENT = 19;
export const CANCEL_CALL = 20;
export const ANSWER_APPROVAL = 21;
export const FINISH_TOOL = 22;
export const CLOSE = 23;
export const TAKE_EFFECTS = 24;
export const TAKE_MESSAGES = 25;
// SessionMachine.query(op): a deadline (ms since the epoch, -1 for never), then flags (1 set, 0 not)
export const NEXT_DEADLINE = 26;
export const STREAM_ENDED = 27;
export const WANTS_DEVICE_STATUS = 28;
export const HAS_IN_FLIGHT_TURN = 29;
export const IS_CLOSED = 30;
export const IS_DRAINING = 31;

// TranscriptCore.applyFragment(kind, …): the flag of a text fragment whose identity changed, and
// the kind of a tool-call fragment (text fragments: 1 assistant, 2 reasoning)
export const NEW_IDS = 4;
export const TOOL_CALL = 8;

// TranscriptCore.run(op, text): fold a message, merge a history page (order detected; +1 asc,
// +2 desc), take or discard the patch, reset; read a raw stream event's token delta
export const MESSAGE = 0;
export const PAGE = 1;
export const TAKE_PATCH = 4;
export const DISCARD_PATCH = 5;
export const RESET = 6;
export const STREAM_TEXT_DELTA = 7;
