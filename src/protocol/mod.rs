//! App-server wire protocol: frames, validation, normalization to `SDKMessage`.
