"""The training's step plan and learning rate: how many optimiser steps fit the wall-clock budget, and the rate at each.

The rate warms up linearly to `lr` over `warmup` steps, then decays exponentially to `lr_final` at the planned last
step. A budget-driven run plans from the measured speed of each epoch and plans again after every epoch: a GPU shared
for part of the run (a stability survey beside the training) no longer fixes a plan made at the slow speed and leaves
the rest of the budget unused. A new plan re-anchors the decay at the current step and rate, so the rate stays
continuous and still reaches `lr_final` at the (new) last step. With `--steps N` nothing is re-planned and the
schedule is the plain warm-up and decay, so a recorded plan can be repeated.
"""


class StepPlan:
    """Planned optimiser steps and the learning rate at each step (steps count from 0)."""

    def __init__(self, lr, lr_final, warmup, planned=0):
        self.lr, self.lr_final, self.warmup = float(lr), float(lr_final), int(warmup)
        self.planned = int(planned)
        self.anchor_step, self.anchor_lr = self.warmup, self.lr
        self.history = []   # (step, planned) of every plan made during the run

    def rate(self, step):
        """Learning rate of optimiser step `step`."""
        if step < self.warmup:
            return self.lr * (step + 1) / self.warmup
        if self.planned <= 0:
            return self.lr
        frac = min(1.0, (step - self.anchor_step) / max(1, self.planned - self.anchor_step))
        return self.anchor_lr * (self.lr_final / self.anchor_lr) ** frac

    def steps_for(self, step, left_s, epoch_s, epoch_steps, margin=0.96):
        """The last step that the remaining `left_s` seconds reach at the last epoch's speed (`epoch_steps` steps in
        `epoch_s` s), keeping 1 - margin of them for validations; never before the warm-up ends or the current step."""
        return max(self.warmup + 1, step + 1, step + int(margin * left_s / max(epoch_s, 1e-9) * epoch_steps))

    def replan(self, step, planned):
        """Adopt a new plan at step `step` (the number of steps done): the decay continues from today's rate."""
        if step > self.warmup:
            self.anchor_lr, self.anchor_step = self.rate(step), step
        self.planned = int(planned)
        self.history.append((int(step), self.planned))
