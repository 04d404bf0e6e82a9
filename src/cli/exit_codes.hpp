#pragma once
// Moved to core/exit_codes.hpp (below cli, next to the error kinds); this forward stays only until the
// last CLI files include the new place.
#include "core/exit_codes.hpp"
