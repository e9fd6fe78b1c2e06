#include "abstracts/error.h"

#include <utility>

namespace abstracts {

Error::Error(const std::string& message, std::string hint)
    : std::runtime_error(message), hint_(std::move(hint)) {}

QueryError::QueryError(const std::string& message, std::size_t column, std::string hint)
    : Error(message, std::move(hint)), column_(column) {}

InputError::InputError(const std::string& message, std::string file, std::size_t line,
                       std::string hint)
    : Error(message, std::move(hint)), file_(std::move(file)), line_(line) {}

ShardUnavailable::ShardUnavailable(const std::string& message, std::string shard, std::string hint)
    : Error(message, std::move(hint)), shard_(std::move(shard)) {}

}  // namespace abstracts
