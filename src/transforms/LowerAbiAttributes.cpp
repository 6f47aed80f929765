// lower-abi-attrs (MLIR's spirv-lower-abi-attrs, docs/notes/mlir_spirv.md R-13.4): an entry
// function, a spirv.func with `spirv.entry_point_abi`, whose arguments carry
// `spirv.interface_var_abi` (in its `arg_attrs`, an array with one dictionary per argument)
// gets
//   - a spirv.GlobalVariable `<fn>_arg_<i>` per argument, with its descriptor set and binding:
//     a pointer argument's type as it is (its ABI attribute may not name a storage class), a
//     scalar wrapped as the only member (offset 0) of a Block struct in the attribute's storage
//     class;
//   - the argument's uses replaced by spirv.mlir.addressof of that variable (for a scalar,
//     followed by spirv.AccessChain to member 0 and spirv.Load, as MLIR does), and the arguments
//     dropped;
//   - spirv.EntryPoint (Kernel when the target allows Kernel, else GLCompute) whose interface
//     lists the global variables the function uses from SPIR-V 1.4 on, and only the Input and
//     Output ones before (the SPIR-V rule; MLIR 16 lists none);
//   - spirv.ExecutionMode LocalSize with the workgroup size, when the ABI gives one.
// The target is the module's spirv.target_env, else its vce_triple.
#include "spire/transforms/Pass.h"

#include "spire/dialect/Ops.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace spire::transforms {

namespace {

using dialect::Attribute;
using dialect::AttrKind;
using dialect::Block;
using dialect::OperationState;
using dialect::StructMember;
using dialect::Type;
using dialect::TypeKind;
using dialect::Value;
namespace attr = dialect::attr;
namespace ops = dialect::ops;
using grammar::OperandKind;

constexpr uint32_t kDecorationBlock = static_cast<uint32_t>(grammar::Decoration::Block);
constexpr uint32_t kStorageInput = static_cast<uint32_t>(grammar::StorageClass::Input);
constexpr uint32_t kStorageOutput = static_cast<uint32_t>(grammar::StorageClass::Output);

class LowerAbiAttributes final : public Pass {
public:
  std::string_view name() const override { return "lower-abi-attrs"; }

  Status run(Operation &module, Context &context) override {
    if (&module.info() != &ops::module())
      return makeError(module.location(), "lower-abi-attrs runs on a spirv.module");
    Block *body = module.region().front();
    if (!body)
      return {};
    Attribute target = module.attr("spirv.target_env");
    Attribute vce =
        target && target.is(AttrKind::TargetEnv) ? target.targetVce() : module.attr("vce_triple");
    if (vce && vce.is(AttrKind::Vce)) {
      version_ = vce.version();
      for (uint32_t c : vce.capabilities())
        kernel_ = kernel_ || c == static_cast<uint32_t>(grammar::Capability::Kernel);
    }
    for (Operation *op = body->front(); op; op = op->next()) {
      if (Attribute sym = op->attr("sym_name"))
        symbols_.insert(std::string(sym.str()));
      if (&op->info() == &ops::globalVariable())
        globals_.push_back(op);
    }
    std::vector<Operation *> entries;
    for (Operation *op = body->front(); op; op = op->next())
      if (&op->info() == &ops::func() && op->attr("spirv.entry_point_abi"))
        entries.push_back(op);
    for (Operation *fn : entries)
      if (Status s = lower(*fn, *body, context); !s)
        return s;
    return {};
  }

private:
  std::string uniqueSymbol(const std::string &base) {
    std::string name = base;
    for (unsigned n = 0; symbols_.count(name); ++n)
      name = base + "_" + std::to_string(n);
    symbols_.insert(name);
    return name;
  }

  Status lower(Operation &fn, Block &body, Context &ctx) {
    std::string fnName(fn.attr("sym_name").str());
    Attribute abi = fn.attr("spirv.entry_point_abi");
    if (!abi.is(AttrKind::EntryPointAbi))
      return makeError(fn.location(),
                       "spirv.entry_point_abi of @" + fnName + " is not a #spirv.entry_point_abi");
    Attribute fnType = fn.attr("function_type");
    if (!fnType || !fnType.is(AttrKind::Type) || !fnType.type().is(TypeKind::Function))
      return makeError(fn.location(), "@" + fnName + " has no function type");
    if (!fnType.type().results().empty())
      return makeError(fn.location(), "entry function @" + fnName + " must return nothing");
    for (Operation *op = body.front(); op; op = op->next())
      if (&op->info() == &ops::entryPoint() && op->attr("fn") && op->attr("fn").str() == fnName)
        return makeError(fn.location(), "@" + fnName +
                                            " has spirv.entry_point_abi but already has a "
                                            "spirv.EntryPoint");
    std::span<const Type> inputs = fnType.type().inputs();
    Attribute argAttrs = fn.attr("arg_attrs");
    Block *entry = fn.region().empty() ? nullptr : fn.region().front();
    if (!entry && !inputs.empty())
      return makeError(fn.location(), "entry function @" + fnName + " has no body");
    Type i32 = ctx.integer(32);

    // The variables first: nothing changes when an argument cannot be lowered.
    struct Lowered {
      Type varType;
      Type scalar; ///< the argument's type when it is wrapped in a struct
      uint32_t storageClass = 0;
      Attribute abi;
    };
    std::vector<Lowered> lowered;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Attribute dict = argAttrs && argAttrs.is(AttrKind::Array) && i < argAttrs.elements().size()
                           ? argAttrs.elements()[i]
                           : Attribute();
      Attribute var = dict && dict.is(AttrKind::Dictionary) ? dict.lookup("spirv.interface_var_abi")
                                                            : Attribute();
      std::string arg = "argument " + std::to_string(i) + " of entry function @" + fnName;
      if (!var || !var.is(AttrKind::InterfaceVarAbi))
        return makeError(fn.location(), arg + " has no spirv.interface_var_abi");
      Type t = inputs[i];
      Lowered l;
      l.abi = var;
      if (t.is(TypeKind::Integer) || t.is(TypeKind::Float)) {
        if (!var.abiStorageClass())
          return makeError(fn.location(),
                           arg + " is a scalar: its spirv.interface_var_abi must name the "
                                 "storage class of the variable that holds it");
        l.storageClass = *var.abiStorageClass();
        l.scalar = t;
        StructMember member{t, 0u, {}};
        dialect::MemberDecoration block{kDecorationBlock, std::nullopt};
        l.varType = ctx.pointer(ctx.literalStruct({&member, 1}, {&block, 1}), l.storageClass);
      } else if (t.is(TypeKind::Pointer)) {
        if (var.abiStorageClass())
          return makeError(fn.location(), arg + ": 'spirv.interface_var_abi' attribute cannot "
                                                "specify storage class when attaching to a "
                                                "non-scalar value");
        l.varType = t;
        l.storageClass = t.storageClass();
      } else {
        return makeError(fn.location(), arg + " has type " + dialect::toString(t) +
                                            ", neither a scalar nor a pointer");
      }
      lowered.push_back(l);
    }

    std::vector<Value> replacements;
    Operation *insertAt = entry ? entry->front() : nullptr;
    auto insert = [&](OperationState &&st) {
      Operation *op = Operation::create(std::move(st));
      entry->insertBefore(insertAt, op);
      return op;
    };
    for (size_t i = 0; i < lowered.size(); ++i) {
      const Lowered &l = lowered[i];
      std::string sym = uniqueSymbol(fnName + "_arg_" + std::to_string(i));
      OperationState gv(&ops::globalVariable(), fn.location());
      gv.addAttribute(ctx, "sym_name", attr::string(ctx, sym));
      gv.addAttribute(ctx, "type", attr::type(ctx, l.varType));
      gv.addAttribute(ctx, "descriptor_set",
                      attr::integer(ctx, i32, static_cast<int32_t>(l.abi.descriptorSet())));
      gv.addAttribute(ctx, "binding",
                      attr::integer(ctx, i32, static_cast<int32_t>(l.abi.binding())));
      Operation *global = Operation::create(std::move(gv));
      body.insertBefore(&fn, global);
      globals_.push_back(global);

      OperationState addr(&ops::addressOf(), fn.location());
      addr.resultTypes.push_back(l.varType);
      addr.addAttribute(ctx, "variable", attr::symbolRef(ctx, sym));
      Value v = insert(std::move(addr))->result();
      if (l.scalar) {
        OperationState zero(&ops::constant(), fn.location());
        zero.resultTypes.push_back(i32);
        zero.addAttribute(ctx, "value", attr::integer(ctx, i32, 0));
        Value index = insert(std::move(zero))->result();
        OperationState chain(dialect::findOp("spirv.AccessChain"), fn.location());
        chain.resultTypes.push_back(ctx.pointer(l.scalar, l.storageClass));
        chain.operands = {v, index};
        Value member = insert(std::move(chain))->result();
        OperationState load(dialect::findOp("spirv.Load"), fn.location());
        load.resultTypes.push_back(l.scalar);
        load.operands = {member};
        v = insert(std::move(load))->result();
      }
      replacements.push_back(v);
    }
    for (size_t i = 0; i < replacements.size(); ++i)
      entry->argument(static_cast<uint32_t>(i)).replaceAllUsesWith(replacements[i]);
    while (entry && entry->numArguments() > 0)
      entry->eraseArgument(entry->numArguments() - 1);
    fn.setAttr(ctx, "function_type", attr::type(ctx, ctx.function({}, {})));
    fn.removeAttr("arg_attrs");
    // MLIR keeps what it does not lower: the subgroup size.
    if (std::optional<uint32_t> subgroup = abi.subgroupSize())
      fn.setAttr(ctx, "spirv.entry_point_abi", attr::entryPointAbi(ctx, {}, subgroup));
    else
      fn.removeAttr("spirv.entry_point_abi");

    OperationState ep(&ops::entryPoint(), fn.location());
    grammar::ExecutionModel model =
        kernel_ ? grammar::ExecutionModel::Kernel : grammar::ExecutionModel::GLCompute;
    ep.addAttribute(
        ctx, "execution_model",
        attr::enumerant(ctx, OperandKind::ExecutionModel, static_cast<uint32_t>(model)));
    ep.addAttribute(ctx, "fn", attr::symbolRef(ctx, fnName));
    ep.addAttribute(ctx, "interface", attr::array(ctx, interfaceOf(fnName, body, ctx)));
    body.push_back(Operation::create(std::move(ep)));

    if (!abi.workgroupSize().empty()) {
      OperationState mode(&ops::executionMode(), fn.location());
      mode.addAttribute(ctx, "fn", attr::symbolRef(ctx, fnName));
      mode.addAttribute(ctx, "execution_mode",
                        attr::enumerant(ctx, OperandKind::ExecutionMode,
                                        static_cast<uint32_t>(grammar::ExecutionMode::LocalSize)));
      std::vector<Attribute> values;
      for (size_t k = 0; k < 3; ++k)
        values.push_back(attr::integer(
            ctx, i32,
            k < abi.workgroupSize().size() ? static_cast<int32_t>(abi.workgroupSize()[k]) : 1));
      mode.addAttribute(ctx, "values", attr::array(ctx, values));
      body.push_back(Operation::create(std::move(mode)));
    }
    return {};
  }

  /// The global variables the function and the functions it calls use, in the module's order.
  std::vector<Attribute> interfaceOf(const std::string &fnName, Block &body, Context &ctx) {
    std::set<std::string, std::less<>> used, visited;
    std::vector<std::string> work{fnName};
    while (!work.empty()) {
      std::string name = work.back();
      work.pop_back();
      if (!visited.insert(name).second)
        continue;
      for (Operation *op = body.front(); op; op = op->next()) {
        if (&op->info() != &ops::func() || !op->attr("sym_name") ||
            op->attr("sym_name").str() != name)
          continue;
        dialect::walk(op, [&](Operation *inner) {
          if (&inner->info() == &ops::addressOf() && inner->attr("variable"))
            used.insert(std::string(inner->attr("variable").str()));
          if (&inner->info() == &ops::functionCall() && inner->attr("callee"))
            work.push_back(std::string(inner->attr("callee").str()));
        });
      }
    }
    std::vector<Attribute> out;
    for (Operation *g : globals_) {
      std::string_view sym = g->attr("sym_name").str();
      if (!used.count(sym))
        continue;
      Attribute t = g->attr("type");
      bool io =
          t && t.type().is(TypeKind::Pointer) &&
          (t.type().storageClass() == kStorageInput || t.type().storageClass() == kStorageOutput);
      if (version_ >= grammar::makeVersion(1, 4) || io)
        out.push_back(attr::symbolRef(ctx, sym));
    }
    return out;
  }

  uint32_t version_ = grammar::makeVersion(1, 0);
  bool kernel_ = false;
  std::unordered_set<std::string> symbols_;
  std::vector<Operation *> globals_;
};

} // namespace

std::unique_ptr<Pass> createLowerAbiAttributesPass() {
  return std::make_unique<LowerAbiAttributes>();
}

extern const PassRegistration kLowerAbiAttributesPass{
    "lower-abi-attrs",
    "lower entry function ABI attributes to global variables, entry points and execution modes",
    createLowerAbiAttributesPass};

} // namespace spire::transforms
