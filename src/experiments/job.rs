//! How every experiment runs: a [`Job`] advanced in slices, so that a caller (the
//! page's worker, the CLI, a test) can report progress, show partial results and cancel
//! between slices. [`Sliced`] is the one run / step / progress / partial loop that
//! experiments made of several runs share; [`ready`] starts a result computed at once.

use super::Settings;
use crate::core::input::InputError;

/// A run that advances in slices.
pub trait Job<O> {
    /// Does about `budget` units of work (the units of the experiment's cost model);
    /// returns the fraction done, in [0, 1].
    fn advance(&mut self, budget: u64) -> f64;
    fn done(&self) -> bool;
    /// The result so far, for experiments whose partial results mean something.
    fn partial(&self) -> Option<O> {
        None
    }
    /// The final result: runs to the end, then takes the result so far; a job with no
    /// partial result gives its own.
    fn finish(mut self: Box<Self>) -> O {
        while !self.done() {
            self.advance(u64::MAX);
        }
        self.partial().expect("a job without partial results has its own finish")
    }
    /// Work done so far, in the units of the experiment's cost model.
    fn work(&self) -> f64;
}

/// Runs `job` to its end in slices of `budget`, as the page's worker does (the tests: a
/// result must not depend on how its job is advanced).
#[cfg(test)]
pub fn in_slices<O>(mut job: Box<dyn Job<O>>, budget: u64) -> O {
    while !job.done() {
        job.advance(budget);
    }
    job.finish()
}

/// A result computed at once (closed-form curves take microseconds).
pub struct Ready<O> {
    output: O,
    work: f64,
}

/// Starts an experiment whose result is computed at once: `compute`'s result, with the
/// work the configuration's cost model gives.
pub fn ready<C: Settings, O: 'static>(config: C, compute: fn(C) -> Result<O, InputError>) -> Result<Box<dyn Job<O>>, InputError> {
    let work = config.cost().work;
    Ok(Box::new(Ready { output: compute(config)?, work }))
}

impl<O> Job<O> for Ready<O> {
    fn advance(&mut self, _: u64) -> f64 {
        1.0
    }
    fn done(&self) -> bool {
        true
    }
    fn finish(self: Box<Self>) -> O {
        self.output
    }
    fn work(&self) -> f64 {
        self.work
    }
}

/// An experiment made of runs (a policy at a capacity, a concept, a partition…), each
/// advanced one slice at a time. Slices depend only on the configuration, never on the
/// caller's budget, so a result is the same to the last bit however it is advanced.
pub trait Plan {
    /// A run in progress.
    type Run;
    type Output;
    /// Starts the next run, if any is left (runs may be added as others end); returns
    /// it with the work its setup cost.
    fn begin(&mut self) -> Option<(Self::Run, f64)>;
    /// Advances `run` by one slice: the work done, and whether the run is over.
    fn step(&mut self, run: &mut Self::Run) -> (f64, bool);
    /// Advances `run` by about `budget` units of work (at least one slice); plans whose
    /// slices are small and independent of each other run several at once.
    fn step_within(&mut self, run: &mut Self::Run, _budget: f64) -> (f64, bool) {
        self.step(run)
    }
    /// Folds a finished run into the results.
    fn end(&mut self, run: Self::Run);
    /// The results so far, with `running` (if any) as a partial result.
    fn output(&self, running: Option<&Self::Run>) -> Self::Output;
    /// The expected total work, for the progress fraction.
    fn total_work(&self) -> f64;
    /// The fraction done, when the plan knows it better than work over total work.
    fn progress(&self, _running: Option<&Self::Run>) -> Option<f64> {
        None
    }
    /// Called once when every run has ended.
    fn complete(&mut self) {}
}

/// The loop every [`Plan`] runs in.
pub struct Sliced<P: Plan> {
    plan: P,
    running: Option<P::Run>,
    work: f64,
    exhausted: bool,
}

impl<P: Plan> Sliced<P> {
    pub fn new(plan: P) -> Self {
        Sliced { plan, running: None, work: 0.0, exhausted: false }
    }

    pub fn plan(&self) -> &P {
        &self.plan
    }

    pub fn advance(&mut self, budget: u64) -> f64 {
        let target = self.work + budget.max(1) as f64;
        while !self.exhausted && self.work < target {
            match self.running.as_mut() {
                None => match self.plan.begin() {
                    Some((run, setup)) => {
                        self.running = Some(run);
                        self.work += setup;
                    }
                    None => {
                        self.exhausted = true;
                        self.plan.complete();
                    }
                },
                Some(run) => {
                    let (work, over) = self.plan.step_within(run, target - self.work);
                    self.work += work;
                    if over {
                        let run = self.running.take().expect("a run in progress");
                        self.plan.end(run);
                    }
                }
            }
        }
        self.fraction()
    }

    pub fn done(&self) -> bool {
        self.exhausted
    }

    fn fraction(&self) -> f64 {
        if self.exhausted {
            return 1.0;
        }
        let fraction = self.plan.progress(self.running.as_ref()).unwrap_or_else(|| self.work / self.plan.total_work().max(1.0));
        fraction.clamp(0.0, 0.999)
    }

    pub fn partial(&self) -> P::Output {
        self.plan.output(self.running.as_ref())
    }

    pub fn finish(mut self) -> P::Output {
        while !self.exhausted {
            self.advance(u64::MAX / 4);
        }
        self.plan.output(None)
    }

    pub fn work(&self) -> f64 {
        self.work
    }
}

impl<P: Plan> Job<P::Output> for Sliced<P> {
    fn advance(&mut self, budget: u64) -> f64 {
        Sliced::advance(self, budget)
    }
    fn done(&self) -> bool {
        Sliced::done(self)
    }
    fn partial(&self) -> Option<P::Output> {
        Some(Sliced::partial(self))
    }
    fn finish(self: Box<Self>) -> P::Output {
        Sliced::finish(*self)
    }
    fn work(&self) -> f64 {
        Sliced::work(self)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Three runs of 5, 7 and 1 slices, each slice worth 10 units, summing slice indices.
    struct Counting {
        lengths: Vec<u32>,
        next: usize,
        sums: Vec<u32>,
    }

    impl Plan for Counting {
        type Run = (u32, u32);
        type Output = Vec<u32>;
        fn begin(&mut self) -> Option<((u32, u32), f64)> {
            let n = *self.lengths.get(self.next)?;
            self.next += 1;
            Some(((n, 0), 1.0))
        }
        fn step(&mut self, run: &mut (u32, u32)) -> (f64, bool) {
            run.0 -= 1;
            run.1 += run.0;
            (10.0, run.0 == 0)
        }
        fn end(&mut self, run: (u32, u32)) {
            self.sums.push(run.1);
        }
        fn output(&self, running: Option<&(u32, u32)>) -> Vec<u32> {
            self.sums.iter().copied().chain(running.map(|r| r.1)).collect()
        }
        fn total_work(&self) -> f64 {
            133.0
        }
    }

    fn plan() -> Counting {
        Counting { lengths: vec![5, 7, 1], next: 0, sums: Vec::new() }
    }

    #[test]
    fn any_budget_gives_the_same_result_and_progress_grows() {
        let whole = Sliced::new(plan()).finish();
        assert_eq!(whole, vec![10, 21, 0]);
        for budget in [1, 3, 10, 25, 1000] {
            let mut job = Sliced::new(plan());
            let mut last = 0.0;
            while !job.done() {
                let f = job.advance(budget);
                assert!(f >= last, "progress never goes back");
                last = f;
                assert!(job.partial().len() <= 3);
            }
            assert_eq!(job.work(), 133.0, "setup and slices counted once");
            assert_eq!(job.finish(), whole);
        }
    }
}
