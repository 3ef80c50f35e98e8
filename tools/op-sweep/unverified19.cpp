// unverified19 - MLIR 19's parser and bytecode writer without its verifier.
//
// mlir-opt 19 verifies every module it parses and has no switch to stop it
// (MLIR 20 added `--mlir-very-unsafe-disable-verifier-on-parsing`). An op
// built alone from layout data, without its operands, regions or results,
// fails most verifiers, so mlir-opt 19 cannot write it as bytecode. This
// tool reads such a module with verification off, as MLIR 19's own parser
// and bytecode writer treat it otherwise, so that the per-op sweep
// (sweep.py --release 19, SPEC.md §7.5) can check how we read what MLIR 19
// writes for every op of its layout data.
//
//   unverified19 print IN          generic print of IN with its locations,
//                                  as `mlir-opt --mlir-print-op-generic
//                                  --mlir-print-debuginfo` prints
//   unverified19 write IN OUT V    IN as bytecode version V, producer
//                                  "MLIR19.x.y" as mlir-opt 19 writes
//
// Built by build_unverified19.sh against Debian's libmlir-19-dev.
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  bool print = argc == 3 && std::strcmp(argv[1], "print") == 0;
  bool write = argc == 5 && std::strcmp(argv[1], "write") == 0;
  if (!print && !write) {
    llvm::errs() << "usage: unverified19 print IN | unverified19 write IN OUT VERSION\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  // As mlir-opt 19 registers them: the extensions add ops too (the
  // transform dialect's, e.g. transform.loop.unroll_and_jam).
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::MLIRContext context(registry);
  context.allowUnregisteredDialects();
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::Operation *> op =
      mlir::parseSourceFile<mlir::Operation *>(argv[2], config);
  if (!op)
    return 1;
  if (print) {
    mlir::OpPrintingFlags flags;
    flags.printGenericOpForm();
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
    op.get()->print(llvm::outs(), flags);
    llvm::outs() << "\n";
    return 0;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(argv[3], ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << argv[3] << ": " << ec.message() << "\n";
    return 1;
  }
  mlir::BytecodeWriterConfig writer;
  writer.setDesiredBytecodeVersion(std::atoll(argv[4]));
  if (mlir::failed(mlir::writeBytecodeToFile(op.get(), os, writer)))
    return 1;
  return 0;
}
