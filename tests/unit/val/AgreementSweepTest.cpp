// spire val against the structured IR's verifier, instruction by instruction (the sweep of
// AgreementSweep.h): each combination of an instruction spire val accepts must deserialize to IR
// that verifies. A combination the validator lets through and the IR rejects is a rule the
// validator lacks (or one the verifier has wrong); the dialect fuzz target finds such gaps one at
// a time, the sweep finds them instruction class by instruction class.
#include "AgreementSweep.h"

namespace spire::val {
namespace {

TEST(ValAgreementSweep, ShaderFormsValAcceptsVerify) {
  sweep::Tally tally;
  sweep::sweepAll(sweep::kShader, tally);
}

TEST(ValAgreementSweep, KernelFormsValAcceptsVerify) {
  sweep::Tally tally;
  sweep::sweepAll(sweep::kKernel, tally);
}

TEST(ValAgreementSweep, SpecConstantOperationsValAcceptsVerify) {
  for (const sweep::Spec *spec : {&sweep::kSpecShader, &sweep::kSpecKernel}) {
    sweep::Tally tally;
    sweep::sweepAll(*spec, tally);
  }
}

} // namespace
} // namespace spire::val
