//! Admission plugins that change or reject pods before they reach the scheduler.

pub mod priority;
