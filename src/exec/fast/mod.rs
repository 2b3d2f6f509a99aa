//! The fast executor (placeholder: delegates to the reference until the real one lands).

use std::ops::Range;

use super::reference::Reference;
use super::{Executor, Observer};
use crate::program::ValidProgram;

/// Runs programs quickly.
#[derive(Debug)]
pub struct Fast {
    inner: Reference,
}

impl Fast {
    /// Prepares `program`.
    pub fn new(program: ValidProgram) -> Fast {
        Fast {
            inner: Reference::new(program),
        }
    }
}

impl Executor for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }
    fn program(&self) -> &ValidProgram {
        self.inner.program()
    }
    fn run_range(&self, state: &str, range: Range<usize>, observer: &mut dyn Observer) -> String {
        self.inner.run_range(state, range, observer)
    }
}
