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

#include "spire/dialect/Builder.h"
#include "spire/dialect/GeneratedOps.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/StructuralOps.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace spire::transforms {

namespace {

using dialect::AccessChainOp;
using dialect::AddressOfOp;
using dialect::Attribute;
using dialect::AttrKind;
using dialect::Block;
using dialect::ConstantOp;
using dialect::EntryPointOp;
using dialect::ExecutionModeOp;
using dialect::GlobalVariableOp;
using dialect::LoadOp;
using dialect::OpBuilder;
using dialect::StructMember;
using dialect::Type;
using dialect::TypeKind;
using dialect::Value;
namespace attr = dialect::attr;

constexpr uint32_t kDecorationBlock = static_cast<uint32_t>(grammar::Decoration::Block);
constexpr uint32_t kStorageInput = static_cast<uint32_t>(grammar::StorageClass::Input);
constexpr uint32_t kStorageOutput = static_cast<uint32_t>(grammar::StorageClass::Output);

class LowerAbiAttributes final : public Pass {
public:
  std::string_view name() const override { return "lower-abi-attrs"; }

  Status run(Operation &module, Context &context) override {
    if (!dialect::isa<dialect::ModuleOp>(&module))
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
      if (dialect::isa<GlobalVariableOp>(op))
        globals_.push_back(op);
    }
    std::vector<Operation *> entries;
    for (Operation *op = body->front(); op; op = op->next())
      if (dialect::isa<dialect::FuncOp>(op) && op->attr("spirv.entry_point_abi"))
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
      if (dialect::isa<EntryPointOp>(op) && op->attr("fn") && op->attr("fn").str() == fnName)
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
        dialect::MemberDecoration block{kDecorationBlock, std::nullopt, std::nullopt};
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
    OpBuilder globals(ctx), code(ctx);
    globals.setLocation(fn.location());
    globals.setInsertionPoint(&fn);
    code.setLocation(fn.location());
    if (entry && entry->front())
      code.setInsertionPoint(entry->front());
    else
      code.setInsertionPointToEnd(entry);
    for (size_t i = 0; i < lowered.size(); ++i) {
      const Lowered &l = lowered[i];
      std::string sym = uniqueSymbol(fnName + "_arg_" + std::to_string(i));
      auto global = globals.create<GlobalVariableOp>(sym, l.varType);
      global.setBinding(globals, l.abi.descriptorSet(), l.abi.binding());
      globals_.push_back(global.operation());
      Value v = code.create<AddressOfOp>(global).result();
      if (l.scalar) {
        Value index = ConstantOp::integer(code, i32, 0).result();
        Value member = code.create<AccessChainOp>(ctx.pointer(l.scalar, l.storageClass), v,
                                                  std::span(&index, 1))
                           .result();
        v = code.create<LoadOp>(l.scalar, member).result();
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

    OpBuilder top(ctx);
    top.setLocation(fn.location());
    top.setInsertionPointToEnd(&body);
    std::vector<Attribute> interface = interfaceOf(fnName, body, ctx);
    std::vector<std::string_view> symbols;
    for (Attribute a : interface)
      symbols.push_back(a.str());
    top.create<EntryPointOp>(kernel_ ? grammar::ExecutionModel::Kernel
                                     : grammar::ExecutionModel::GLCompute,
                             fnName, symbols);
    if (!abi.workgroupSize().empty()) {
      uint32_t size[3] = {1, 1, 1};
      for (size_t k = 0; k < 3 && k < abi.workgroupSize().size(); ++k)
        size[k] = abi.workgroupSize()[k];
      top.create<ExecutionModeOp>(fnName, grammar::ExecutionMode::LocalSize, size);
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
        if (!dialect::isa<dialect::FuncOp>(op) || !op->attr("sym_name") ||
            op->attr("sym_name").str() != name)
          continue;
        dialect::walk(op, [&](Operation *inner) {
          if (dialect::isa<AddressOfOp>(inner) && inner->attr("variable"))
            used.insert(std::string(inner->attr("variable").str()));
          if (dialect::isa<dialect::FunctionCallOp>(inner) && inner->attr("callee"))
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
