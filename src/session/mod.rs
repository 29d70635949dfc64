//! Sans-IO session core: the turn coordinator and the session state machine.

pub mod coordinator;
