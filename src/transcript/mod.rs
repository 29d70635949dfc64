//! Transcript accumulator: folds `SDKMessage`s and history pages into render-ready rows.
