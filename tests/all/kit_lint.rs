//! deck lint
