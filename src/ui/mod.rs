//! Views (browser only).
