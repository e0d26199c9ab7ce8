//! deck card
