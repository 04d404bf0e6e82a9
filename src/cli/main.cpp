// gpupack: one binary, one subcommand per verb. This file only parses, dispatches and maps failures to
// exit codes (docs/cli.md): 0 ok, 1 a negative answer, 2 bad input, 3 unavailable here, 70 a bug.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <iostream>

#include "cli/command.hpp"
#include "core/build_info.hpp"
#include "core/exit_codes.hpp"
#include "core/errors.hpp"
#include "core/gpu_catalog.hpp"
#include "core/text.hpp"

namespace {

constexpr const char* kDescription =
    "gpupack: measure, plan, render and operate GPU sharing (streams, time-slicing, MPS, MIG).";

// Names an unknown subcommand before CLI11 reports only "a subcommand is required": walks the words
// down the command tree and returns the first one that is neither a known subcommand nor an option.
std::string unknown_subcommand(CLI::App& app, int argc, char** argv) {
  CLI::App* current = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return {};
    // Hidden subcommands (bench-worker, group "") are accepted but not offered.
    const auto subs = current->get_subcommands([](CLI::App*) { return true; });
    if (subs.empty()) return {};
    CLI::App* next = nullptr;
    for (CLI::App* sub : subs) {
      if (sub->check_name(word)) next = sub;
    }
    if (!next) {
      std::string names;
      for (CLI::App* sub : subs) {
        if (!sub->get_group().empty()) names += (names.empty() ? "" : ", ") + sub->get_name();
      }
      const std::string path = current == &app ? "gpupack" : "gpupack " + current->get_name();
      return "unknown command '" + word + "' for " + path + "; accepted: " + names;
    }
    current = next;
  }
  return {};
}

// The last line of defence for an error that quotes input without quote_input (core/text.hpp): a
// message with a control character or longer than 2000 bytes goes out escaped and cut, as one line.
std::string one_line_message(std::string_view message) {
  const bool clean = message.size() <= 2000 && std::all_of(message.begin(), message.end(), [](char c) {
                       return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
                     });
  return clean ? std::string(message) : gpupack::quote_input(message, 2000);
}

// What a command printed reaches stdout only when flushed: `gpupack plan --format json > /dev/full` (or
// onto a full file system) exited 0 with truncated output. A failed write is exit 1 with one line (the
// user named no path: the shell did), unless the command had already failed with its own code.
int finish_stdout(int code) {
  if (std::cout.flush() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
  // The write that failed may lie far back (a large plan fills stdio's buffer many times): write once more
  // to learn why (ENOSPC, EIO); the output is broken already.
  std::clearerr(stdout);
  errno = 0;
  std::fputc('\n', stdout);
  const int error = std::fflush(stdout) != 0 ? errno : 0;
  std::cerr << "gpupack: cannot write to standard output: " << (error != 0 ? std::strerror(error) : "a write failed")
            << '\n';
  return code == gpupack::exit_code::ok ? gpupack::exit_code::negative : code;
}

int run(int argc, char** argv) {
  using namespace gpupack;
  CLI::App app{kDescription, "gpupack"};
  app.set_version_flag("--version", "gpupack " + std::string(kGpupackVersion) + " (commit " + std::string(build_commit()) + ")");
  app.require_subcommand(1);
  SystemEnv system;
  const GpuCatalog catalog = builtin_catalog();
  CommandContext ctx{std::cout, {}, system.env(), catalog};
  register_catalog_command(app, ctx);
  register_mig_command(app, ctx);
  register_plan_command(app, ctx);
  register_model_command(app, ctx);
  register_bench_command(app, ctx);
  register_gpus_command(app, ctx);
  register_mps_command(app, ctx);
  register_run_command(app, ctx);
  register_profile_command(app, ctx);
  register_neighbour_command(app, ctx);
  register_agent_command(app, ctx);
  register_labels_command(app, ctx);
  register_render_command(app, ctx);
  register_verify_command(app, ctx);
  register_check_command(app, ctx);
  add_help_examples(app);
  if (const std::string unknown = unknown_subcommand(app, argc, argv); !unknown.empty()) {
    std::cerr << "gpupack: " << unknown << '\n';
    return exit_code::usage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "gpupack: " << e.what() << " (run with --help for usage)\n";
    return exit_code::usage;
  }
  if (!ctx.action) {
    std::cerr << "gpupack: no command given (run with --help for usage)\n";
    return exit_code::usage;
  }
  const int code = ctx.action();
  return finish_stdout(code);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const gpupack::InputError& e) {
    std::cerr << "gpupack: " << one_line_message(e.what()) << '\n';
    return gpupack::exit_code_for(gpupack::ErrorKind::input);
  } catch (const std::exception& e) {
    std::cerr << "gpupack: internal error: " << e.what() << '\n';
    return gpupack::exit_code_for(gpupack::ErrorKind::internal);
  }
}
