//! DSH (DeepSeek Harness), deck's own: its frames, session logs and
//! history documents are deck's records as they are (`wire`, read by the
//! loader); here are the presenters of its stock tools, used when a log
//! carries no views (`present`).

pub mod present;
