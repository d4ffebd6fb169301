/**
 * The TorchScript baseline: the student model exported by the training recipe
 * (forcefield/training/export.py) and run through DJL's PyTorch engine (libtorch 2.7.1, CPU,
 * offline). It is the independent implementation the Java students are validated against and the
 * baseline of the validation runs. Forces come from autograd inside the scripted module.
 */
package org.molten.forcefield.torchscript;
