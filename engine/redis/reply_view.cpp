#include "redis/reply_view.h"

#include "redis/redis_reply.h"

namespace ratelab {

ReplyView::Type ReplyView::type() const {
    if (reply_ == nullptr) {
        return Type::Missing;
    }
    switch (reply_->type) {
        case REDIS_REPLY_NIL:
            return Type::Nil;
        case REDIS_REPLY_INTEGER:
            return Type::Integer;
        case REDIS_REPLY_STRING:
            return Type::String;
        case REDIS_REPLY_STATUS:
            return Type::Status;
        case REDIS_REPLY_ERROR:
            return Type::Error;
        case REDIS_REPLY_ARRAY:
            return Type::Array;
        default:
            return Type::Other;
    }
}

long long ReplyView::integer() const {
    return reply_ != nullptr && reply_->type == REDIS_REPLY_INTEGER ? reply_->integer : 0;
}

std::string_view ReplyView::text() const {
    if (reply_ == nullptr ||
        (reply_->type != REDIS_REPLY_STRING && reply_->type != REDIS_REPLY_STATUS &&
         reply_->type != REDIS_REPLY_ERROR)) {
        return {};
    }
    return std::string_view(reply_->str, reply_->len);
}

std::size_t ReplyView::size() const {
    return reply_ != nullptr && reply_->type == REDIS_REPLY_ARRAY ? reply_->elements : 0;
}

ReplyView ReplyView::element(std::size_t i) const {
    return ReplyView(i < size() ? reply_->element[i] : nullptr);
}

const char* ReplyView::typeName() const {
    return replyTypeName(reply_ != nullptr ? reply_->type : -1);
}

bool ReplyView::integers(const char* prefix, long long* out, std::size_t count) const {
    return replyIntegers(reply_, prefix, out, count);
}

void ReplyView::throwIfError(const std::string& context) const {
    ratelab::throwIfError(reply_, context.c_str());
}

}  // namespace ratelab
