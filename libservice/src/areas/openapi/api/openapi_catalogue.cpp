// The OpenAPI catalogue (openapi_document.h): per route "METHOD pattern" its tag, summary, query
// parameters, request body and responses; the component schemas (JSON Schema 2020-12), the security
// schemes and the tags. A route registered without an entry here fails tests/api/openapi_test.cpp.
// Response values: a schema name (application/json), or "#binary", "#anybinary", "#multipart", "#sse",
// "#text", "#csv", "#json",
// "#empty". "security" overrides the route's AuthMode where the handler authenticates itself;
// "optional" marks routes registered only under a setting; "errors" adds declared error statuses.
#include <string>

#include "areas/openapi/api/openapi_document.h"

namespace service::api::openapi {

namespace {

// Split below the compilers' string literal limit.
const char* const kPieces[] = {
    R"catalogue({
 "description": "Generated at run time from the route table (libservice/src/api/router.h) and the catalogue of libservice/src/areas/openapi/api/openapi_catalogue.cpp. Errors answer the error envelope (components/schemas/Error). x-service-auth names the route's authentication mode and x-service-capability the role capability it needs.",
 "tags": [
  {
   "name": "accounts",
   "description": "The accounts area"
  },
  {
   "name": "admin",
   "description": "The admin area"
  },
  {
   "name": "agents",
   "description": "The agents area"
  },
  {
   "name": "ai",
   "description": "The ai area"
  },
  {
   "name": "applications",
   "description": "The applications area"
  },
  {
   "name": "bugs",
   "description": "The bugs area"
  },
  {
   "name": "capture",
   "description": "The capture area"
  },
  {
   "name": "evidence",
   "description": "The evidence area"
  },
  {
   "name": "health",
   "description": "Liveness and readiness"
  },
  {
   "name": "integrations",
   "description": "The integrations area"
  },
  {
   "name": "meta",
   "description": "The document and metrics"
  },
  {
   "name": "notifications",
   "description": "The notifications area"
  },
  {
   "name": "operations",
   "description": "The operations area"
  },
  {
   "name": "projects",
   "description": "The projects area"
  },
  {
   "name": "sentry",
   "description": "The sentry area"
  },
  {
   "name": "sourcemaps",
   "description": "The sourcemaps area"
  },
  {
   "name": "symbols",
   "description": "The symbols area"
  },
  {
   "name": "team",
   "description": "The team area"
  },
  {
   "name": "tickets",
   "description": "The tickets area"
  },
  {
   "name": "triage",
   "description": "The triage area"
  },
  {
   "name": "verification",
   "description": "The verification area"
  }
 ],
 "securitySchemes": {
  "bearerJwt": {
   "type": "http",
   "scheme": "bearer",
   "bearerFormat": "JWT",
   "description": "A session access token (POST /v1/auth/login)."
  },
  "organization": {
   "type": "apiKey",
   "in": "header",
   "name": "X-Service-Org",
   "description": "The organization id the caller acts in; combined with bearerJwt (membership and role capability checked)."
  },
  "superadmin": {
   "type": "http",
   "scheme": "bearer",
   "bearerFormat": "JWT",
   "description": "A session access token whose email is on SERVICE_SUPERADMIN_EMAILS."
  },
  "captureKey": {
   "type": "apiKey",
   "in": "header",
   "name": "X-Service-Key",
   "description": "A project's capture key (POST /v1/projects/{id}/keys)."
  },
  "agentToken": {
   "type": "http",
   "scheme": "bearer",
   "bearerFormat": "sv_pat_",
   "description": "An agent personal access token (sv_pat_..., POST /v1/org/agent-pats)."
  },
  "sentryKey": {
   "type": "apiKey",
   "in": "header",
   "name": "X-Sentry-Auth",
   "description": "Sentry protocol auth (Sentry sentry_key=<capture key>, ...); Authorization: Sentry ... is read the same way."
  },
  "sentryKeyQuery": {
   "type": "apiKey",
   "in": "query",
   "name": "sentry_key",
   "description": "The capture key as browser Sentry SDKs send it. Without any credential, the envelope header's dsn is read."
  }
 },
 "schemas": {
  "OpenObject": {
   "type": "object",
   "additionalProperties": true,
   "description": "A JSON object whose fields this document does not list (see the specifications)."
  },
  "Error": {
   "type": "object",
   "properties": {
    "error": {
     "type": "string"
    },
    "code": {
     "type": "string",
     "description": "Machine-readable code (VALIDATION_ERROR, GROUP_KEY_AMBIGUOUS, ...)"
    },
    "details": {
     "type": "array",
     "items": {
      "type": "object",
      "additionalProperties": true
     }
    },
    "requestId": {
     "type": "string"
    }
   },
   "required": [
    "error"
   ],
   "additionalProperties": true,
   "description": "The error envelope of every failure (Spec 1 \"Errors\"): `error` always; `code`, `details`, `requestId` (5xx) and the status's payload members when present."
  },
  "Success": {
   "type": "object",
   "properties": {
    "success": {
     "const": true
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true
  },
  "SentryError": {
   "type": "object",
   "properties": {
    "detail": {
     "type": "string"
    },
    "error": {
     "type": "string"
    }
   },
   "anyOf": [
    {
     "required": [
      "detail"
     ]
    },
    {
     "required": [
      "error"
     ]
    }
   ],
   "additionalProperties": true,
   "description": "The Sentry protocol routes (/api/...) answer their handlers' refusals as {detail}, as Sentry clients read them; the pipeline's own (authentication, rate limit, body size, 5xx) keep the error envelope {error}."
  },
  "Health": {
   "type": "object",
   "properties": {
    "status": {
     "enum": [
      "ok",
      "degraded"
     ]
    },
    "service": {
     "type": "string"
    },
    "timestamp": {
     "type": "string",
     "format": "date-time"
    },
    "error": {
     "type": "string"
    }
   },
   "required": [
    "service",
    "status",
    "timestamp"
   ],
   "additionalProperties": false
  },
  "DeepHealth": {
   "type": "object",
   "properties": {
    "status": {
     "enum": [
      "ok",
      "degraded"
     ]
    },
    "service": {
     "type": "string"
    },
    "timestamp": {
     "type": "string",
     "format": "date-time"
    },
    "checks": {
     "type": "object",
     "properties": {
      "db": {
       "type": "object",
       "additionalProperties": true
      },
      "migrations": {
       "type": "object",
       "additionalProperties": true
      },
      "email": {
       "type": "object",
       "additionalProperties": true
      },
      "ai": {
       "type": "object",
       "additionalProperties": true
      },
      "jobs": {
       "type": "object",
       "additionalProperties": true
      },
      "redis": {
       "type": "object",
       "additionalProperties": true
      }
     },
     "required": [
      "ai",
      "db",
      "email",
      "jobs",
      "migrations",
      "redis"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "checks",
    "service",
    "status",
    "timestamp"
   ],
   "additionalProperties": false
  },
  "SessionTokens": {
   "type": "object",
   "additionalProperties": true,
   "description": "Access and refresh tokens with the user and organization (accounts_routes TokensJson)."
  },
  "LoginRequest": {
   "type": "object",
   "properties": {
    "email": {
     "type": "string",
     "format": "email"
    },
    "password": {
     "type": "string"
    }
   },
   "required": [
    "email",
    "password"
   ],
   "additionalProperties": true
  },
  "InviteRequest": {
   "type": "object",
   "properties": {
    "email": {
     "type": "string",
     "format": "email"
    },
    "role": {
     "enum": [
      "admin",
      "manager",
      "member",
      "viewer"
     ]
    },
    "orgId": {
     "type": "string",
     "format": "uuid"
    },
    "resend": {
     "type": "boolean"
    }
   },
   "required": [
    "email",
    "orgId"
   ],
   "additionalProperties": false
  },
  "Member": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "email": {
     "type": "string"
    },
    "name": {
     "type": "string"
    },
    "avatar_url": {
     "type": [
      "string",
      "null"
     ]
    },
    "role": {
     "type": "string"
    },
    "state": {
     "enum": [
      "active",
      "pending",
      "deactivated"
     ]
    },
    "joinedAt": {
     "type": "string",
     "format": "date-time"
    },
    "lastLoginAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "invitationExpiresAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    }
   },
   "required": [
    "avatar_url",
    "email",
    "id",
    "joinedAt",
    "lastLoginAt",
    "name",
    "role",
    "state"
   ],
   "additionalProperties": false
  },
  "MemberList": {
   "type": "object",
   "properties": {
    "members": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Member"
     }
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "members",
    "total"
   ],
   "additionalProperties": false
  },
  "Invitation": {
   "type": "object",
   "properties": {
    "success": {
     "const": true
    },
    "userId": {
     "type": "string"
    },
    "invitation": {
     "type": "object",
     "properties": {
      "state": {
       "type": "string"
      },
      "emailStatus": {
       "type": "string"
      },
      "expiresAt": {
       "type": [
        "string",
        "null"
       ],
       "format": "date-time"
      }
     },
     "required": [
      "emailStatus",
      "expiresAt",
      "state"
     ],
     "additionalProperties": false
    }
   },
   "required": [
    "invitation",
    "success",
    "userId"
   ],
   "additionalProperties": false
  },
  "Project": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "org_id": {
     "type": "string"
    },
    "name": {
     "type": "string"
    },
    "slug": {
     "type": "string"
    },
    "platform": {
     "type": "string"
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    },
    "project_number": {
     "type": "integer"
    },
    "bug_count": {
     "type": "integer"
    },
    "new_bug_count": {
     "type": "integer"
    }
   },
   "required": [
    "created_at",
    "id",
    "name",
    "org_id",
    "platform",
    "project_number",
    "slug"
   ],
   "additionalProperties": false
  },
  "ProjectList": {
   "type": "object",
   "properties": {
    "projects": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Project"
     }
    }
   },
   "required": [
    "projects"
   ],
   "additionalProperties": false
  },
  "CaptureKey": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "prefix": {
     "type": "string"
    },
    "env": {
     "type": "string"
    },
    "label": {
     "type": "string"
    },
    "last_used": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "expiresAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    }
   },
   "required": [
    "created_at",
    "env",
    "expiresAt",
    "id",
    "label",
    "last_used",
    "prefix"
   ],
   "additionalProperties": false
  },
  "CaptureKeyList": {
   "type": "object",
   "properties": {
    "keys": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/CaptureKey"
     }
    }
   },
   "required": [
    "keys"
   ],
   "additionalProperties": false
  },
  "CaptureKeyCreated": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "prefix": {
     "type": "string"
    },
    "env": {
     "type": "string"
    },
    "label": {
     "type": "string"
    },
    "last_used": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "expiresAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    },
    "key": {
     "type": "string",
     "description": "The full key, shown once"
    },
    "dsn": {
     "type": "string"
    },
    "projectId": {
     "type": "string"
    }
   },
   "required": [
    "created_at",
    "dsn",
    "env",
    "expiresAt",
    "id",
    "key",
    "label",
    "last_used",
    "prefix",
    "projectId"
   ],
   "additionalProperties": false
  },
  "AgentToken": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "name": {
     "type": "string"
    },
    "prefix": {
     "type": "string",
     "description": "Starts with sv_pat_"
    },
    "scopes": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "expiresAt": {
     "type": "string",
     "format": "date-time"
    },
    "projectGrants": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "projectId": {
        "type": "string"
       },
       "expiresAt": {
        "type": "string",
        "format": "date-time"
       }
      },
      "required": [
       "expiresAt",
       "projectId"
      ],
      "additionalProperties": false
     }
    },
    "accessRevision": {
     "type": "string",
     "description": "Opaque; PATCH takes it as expectedRevision"
    },
    "createdAt": {
     "type": "string",
     "format": "date-time"
    },
    "revokedAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "lastUsedAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "createdBy": {
     "type": "string"
    }
   },
   "required": [
    "accessRevision",
    "createdAt",
    "createdBy",
    "expiresAt",
    "id",
    "lastUsedAt",
    "name",
    "prefix",
    "projectGrants",
    "revokedAt",
    "scopes"
   ],
   "additionalProperties": false
  },
  "AgentTokenList": {
   "type": "object",
   "properties": {
    "agentPats": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/AgentToken"
     }
    }
   },
   "required": [
    "agentPats"
   ],
   "additionalProperties": false
  },
  "AgentTokenCreated": {
   "type": "object",
   "properties": {
    "agentPat": {
     "$ref": "#/components/schemas/AgentToken"
    },
    "token": {
     "type": "string",
     "pattern": "^sv_pat_",
     "description": "The secret, shown once"
    }
   },
   "required": [
    "agentPat",
    "token"
   ],
   "additionalProperties": false
  },
  "AgentTokenOne": {
   "type": "object",
   "properties": {
    "agentPat": {
     "$ref": "#/components/schemas/AgentToken"
    }
   },
   "required": [
    "agentPat"
   ],
   "additionalProperties": false
  },
  "AgentTokenRevoked": {
   "type": "object",
   "properties": {
    "success": {
     "const": true
    },
    "agentPat": {
     "$ref": "#/components/schemas/AgentToken"
    }
   },
   "required": [
    "agentPat",
    "success"
   ],
   "additionalProperties": false
  },
  "Bug": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "title": {
     "type": "string"
    },
    "description": {
     "type": "string"
    },
    "url": {
     "type": "string"
    },
    "severity": {
     "type": "string"
    },
    "status": {
     "type": "string"
    },
    "fingerprint": {
     "type": "string"
    },
    "report_count": {
     "type": "integer"
    },
    "occurrence_count": {
     "type": "integer"
    },
    "reporter_count": {
     "type": "integer"
    },
    "affected_user_count": {
     "type": "integer"
    },
    "affected_session_count": {
     "type": "integer"
    },
    "latest_release": {
     "type": "string"
    },
    "latest_environment": {
     "type": "string"
    },
    "is_regression": {
     "type": "boolean"
    },
    "signal_class": {
     "type": "string"
    },
    "signal_family": {
     "type": "string"
    },
    "signal_reason": {
     "type": "string"
    },
    "classifier_confidence": {
     "type": "string"
    },
    "ai_summary": {},
    "project_id": {
     "type": "string"
    },
    "project_name": {
     "type": "string"
    },
    "assigned_to": {
     "type": [
      "string",
      "null"
     ]
    },
    "first_seen": {
     "type": "string",
     "format": "date-time"
    },
    "last_seen": {
     "type": "string",
     "format": "date-time"
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    },
    "updated_at": {
     "type": "string",
     "format": "date-time"
    },
    "resolved_at": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "agent_ack": {
     "type": [
      "string",
      "null"
     ]
    },
    "agent_ack_by": {
     "type": [
      "string",
      "null"
     ]
    },
    "agent_pr_url": {
     "type": [
      "string",
      "null"
     ]
    }
   },
   "required": [
    "affected_session_count",
    "affected_user_count",
    "agent_ack",
    "agent_ack_by",
    "agent_pr_url",
    "ai_summary",
    "assigned_to",
    "classifier_confidence",
    "created_at",
    "description",
    "fingerprint",
    "first_seen",
    "id",
    "is_regression",
    "last_seen",
    "latest_environment",
    "latest_release",
    "occurrence_count",
    "project_id",
    "project_name",
    "report_count",
    "reporter_count",
    "resolved_at",
    "severity",
    "signal_class",
    "signal_family",
    "signal_reason",
    "status",
    "title",
    "updated_at",
    "url"
   ],
   "additionalProperties": true,
   "description": "A bug (bug_params.cpp BugJson). List rows add fields (additionalProperties)."
  },
  "BugList": {
   "type": "object",
   "required": [
    "bugs"
   ],
   "properties": {
    "bugs": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Bug"
     }
    },
    "total": {
     "type": "integer"
    }
   },
   "additionalProperties": true
  },
  "Occurrence": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "bug_id": {
     "type": "string"
    },
    "project_id": {
     "type": "string"
    },
    "reporter_email": {
     "type": [
      "string",
      "null"
     ]
    },
    "reporter_id": {
     "type": [
      "string",
      "null"
     ]
    },
    "ip_hash": {
     "type": [
      "string",
      "null"
     ]
    },
    "session_id": {
     "type": [
      "string",
      "null"
     ]
    },
    "end_user_id": {
     "type": [
      "string",
      "null"
     ]
    },
    "user_key": {
     "type": "string"
    },
    "release_version": {
     "type": [
      "string",
      "null"
     ]
    },
    "environment": {
     "type": [
      "string",
      "null"
     ]
    },
    "url": {
     "type": [
      "string",
      "null"
     ]
    },
    "user_agent": {
     "type": [
      "string",
      "null"
     ]
    },
    "viewport": {
     "type": [
      "string",
      "null"
     ]
    },
    "browser": {
     "type": [
      "string",
      "null"
     ]
    },
    "os": {
     "type": [
      "string",
      "null"
     ]
    },
    "platform": {
     "type": "string"
    },
    "event_count": {
     "type": "integer"
    },
    "metadata": {
     "type": "object",
     "additionalProperties": true
    },
    "occurred_at": {
     "type": "string",
     "format": "date-time"
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    }
   },
   "required": [
    "browser",
    "bug_id",
    "created_at",
    "end_user_id",
    "environment",
    "event_count",
    "id",
    "ip_hash",
    "metadata",
    "occurred_at",
    "os",
    "platform",
    "project_id",
    "release_version",
    "reporter_email",
    "reporter_id",
    "session_id",
    "url",
    "user_agent",
    "user_key",
    "viewport"
   ],
   "additionalProperties": true
  },
  "OccurrenceList": {
   "type": "object",
   "additionalProperties": true
  },
  "BugDetail": {
   "allOf": [
    {
     "$ref": "#/components/schemas/Bug"
    }
   ],
   "type": "object",
   "properties": {
    "reporters": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "email": {
        "type": "string"
       },
       "report_count": {
        "type": "integer"
       },
       "first_reported_at": {
        "type": "string",
        "format": "date-time"
       },
       "last_reported_at": {
        "type": "string",
        "format": "date-time"
       }
      },
      "required": [
       "email",
       "first_reported_at",
       "last_reported_at",
       "report_count"
      ],
      "additionalProperties": false
     }
    },
    "recent_occurrences": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Occurrence"
     }
    },
    "session_count": {
     "type": "integer"
    },
    "groupingV3": {},
    "duplicateCandidates": {
     "type": "array",
     "items": {
      "type": "object",
      "additionalProperties": true
     }
    },
    "active_verification_promotion_id": {
     "type": [
      "string",
      "null"
     ]
    },
    "verification": {
     "oneOf": [
      {
       "type": "null"
      },
      {
       "type": "object",
       "properties": {
        "state": {
         "type": "string"
        },
        "promotionId": {
         "type": "string"
        },
        "promotedAt": {
         "type": "string",
         "format": "date-time"
        },
        "reason": {
         "type": [
          "string",
          "null"
         ]
        },
        "receiptIds": {
         "type": "array",
         "items": {
          "type": "string"
         }
        }
       },
       "required": [
        "promotedAt",
        "promotionId",
        "reason",
        "receiptIds",
        "state"
       ],
       "additionalProperties": false
      }
     ]
    }
   },
   "required": [
    "reporters",
    "recent_occurrences",
    "session_count",
    "groupingV3",
    "duplicateCandidates",
    "active_verification_promotion_id",
    "verification"
   ]
  },
  "Event": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "bug_id": {
     "type": "string"
    },
    "occurrence_id": {
     "type": "string"
    },
    "event_type": {
     "type": "string"
    },
    "timestamp": {
     "type": "string",
     "format": "date-time"
    },
    "data": {}
   },
   "required": [
    "bug_id",
    "data",
    "event_type",
    "id",
    "occurrence_id",
    "timestamp"
   ],
   "additionalProperties": false
  },
  "EventList": {
   "type": "object",
   "properties": {
    "events": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Event"
     }
    }
   },
   "required": [
    "events"
   ],
   "additionalProperties": false
  },
  "Watching": {
   "type": "object",
   "properties": {
    "watching": {
     "type": "boolean"
    }
   },
   "required": [
    "watching"
   ],
   "additionalProperties": false
  },
  "Notification": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "user_id": {
     "type": "string"
    },
    "org_id": {
     "type": "string"
    },
    "type": {
     "type": "string"
    },
    "title": {
     "type": "string"
    },
    "body": {
     "type": "string"
    },
    "bug_id": {
     "type": [
      "string",
      "null"
     ]
    },
    "actor_id": {
     "type": [
      "string",
      "null"
     ]
    },
    "read": {
     "type": "boolean"
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    }
   },
   "required": [
    "actor_id",
    "body",
    "bug_id",
    "created_at",
    "id",
    "org_id",
    "read",
    "title",
    "type",
    "user_id"
   ],
   "additionalProperties": false
  },
  "NotificationList": {
   "type": "object",
   "properties": {
    "notifications": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Notification"
     }
    },
    "unreadCount": {
     "type": "integer"
    }
   },
   "required": [
    "notifications",
    "unreadCount"
   ],
   "additionalProperties": false
  },
  "Integration": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "project_id": {
     "type": "string"
    },
    "type": {
     "type": "string"
    },
    "name": {
     "type": [
      "string",
      "null"
     ]
    },
    "config": {
     "type": "object",
     "additionalProperties": true
    },
    "events": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "is_active": {
     "type": "boolean"
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    },
    "updated_at": {
     "type": "string",
     "format": "date-time"
    },
    "deliveryFeed": {},
    "minSeverity": {
     "type": [
      "string",
      "null"
     ]
    },
    "bearerToken": {
     "type": "object",
     "properties": {
      "present": {
       "type": "boolean"
      },
      "last4": {
       "type": "string"
      }
     },
     "required": [
      "last4",
      "present"
     ],
     "additionalProperties": false
    },
    "signing": {
     "type": "object",
     "properties": {
      "present": {
       "type": "boolean"
      },
      "secret": {
       "type": [
        "string",
        "null"
       ]
      },
      "previousValidUntil": {
       "type": [
        "string",
        "null"
       ],
       "format": "date-time"
      }
     },
     "required": [
      "present",
      "previousValidUntil",
      "secret"
     ],
     "additionalProperties": false
    }
   },
   "required": [
    "config",
    "created_at",
    "events",
    "id",
    "is_active",
    "name",
    "project_id",
    "type",
    "updated_at"
   ],
   "additionalProperties": true,
   "description": "An integration or webhook (integrations_routes.cpp IntegrationJson); signed types add deliveryFeed, minSeverity, bearerToken and signing."
  },
  "IntegrationCreated": {
   "allOf": [
    {
     "$ref": "#/components/schemas/Integration"
    }
   ],
   "type": "object",
   "properties": {
    "signingSecret": {
     "type": "string",
     "description": "Shown once"
    },
    "bearer": {
     "type": "object",
     "properties": {
      "present": {
       "type": "boolean"
      },
      "last4": {
       "type": "string"
      }
     },
     "required": [
      "last4",
      "present"
     ],
     "additionalProperties": false
    }
   }
  },
  "IntegrationList": {
   "type": "object",
   "properties": {
    "integrations": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Integration"
     }
    }
   },
   "required": [
    "integrations"
   ],
   "additionalProperties": false
  },
  "Delivery": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "event_type": {
     "type": "string"
    },
    "status": {
     "type": "string"
    },
    "attempts": {
     "type": "integer"
    },
    "response_code": {
     "type": [
      "integer",
      "null"
     ]
    },
    "error_message": {
     "type": [
      "string",
      "null"
     ]
    },
    "created_at": {
     "type": "string",
     "format": "date-time"
    },
    "completed_at": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "deferred_until": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "can_retry": {
     "type": "boolean"
    }
   },
   "required": [
    "attempts",
    "can_retry",
    "completed_at",
    "created_at",
    "deferred_until",
    "error_message",
    "event_type",
    "id",
    "response_code",
    "status"
   ],
   "additionalProperties": false
  },
  "DeliveryList": {
   "type": "object",
   "properties": {
    "deliveries": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Delivery"
     }
    },
    "total": {
     "type": "integer"
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    }
   },
   "required": [
    "deliveries",
    "limit",
    "offset",
    "total"
   ],
   "additionalProperties": false
  },
  "Claim": {
   "type": "object",
   "properties": {
    "claimId": {
     "type": "string"
    },
    "generation": {
     "type": "string",
     "pattern": "^[0-9]+$"
    },
    "fencingToken": {
     "type": "string",
     "pattern": "^[0-9]+$"
    },
    "projectId": {
     "type": "string"
    },
    "issueId": {
     "type": "string"
    },
    "status": {
     "enum": [
      "active",
      "released",
      "completed",
      "expired"
     ]
    },
    "expiresAt": {
     "type": "string",
     "format": "date-time"
    }
   },
   "required": [
    "claimId",
    "expiresAt",
    "fencingToken",
    "generation",
    "issueId",
    "projectId",
    "status"
   ],
   "additionalProperties": false
  },
  "ClaimEnvelope": {
   "type": "object",
   "properties": {
    "claim": {
     "$ref": "#/components/schemas/Claim"
    }
   },
   "required": [
    "claim"
   ],
   "additionalProperties": true
  },
  "Artifact": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "artifactId": {
     "type": "string"
    },
    "projectId": {
     "type": "string"
    },
    "occurrenceId": {
     "type": [
      "string",
      "null"
     ]
    },
    "kind": {
     "type": "string"
    },
    "contentType": {
     "type": "string"
    },
    "format": {
     "type": "object",
     "properties": {
      "kind": {
       "type": "string"
      },
      "contentType": {
       "type": "string"
      }
     },
     "required": [
      "contentType",
      "kind"
     ],
     "additionalProperties": false
    },
    "byteCount": {
     "type": "integer"
    },
    "sha256": {
     "type": "string"
    },
    "state": {
     "enum": [
      "reserved",
      "ready",
      "deleted",
      "expired"
     ]
    },
    "generation": {
     "type": "integer"
    },
    "createdAt": {
     "type": "string",
     "format": "date-time"
    },
    "expiresAt": {
     "type": "string",
     "format": "date-time"
    },
    "redaction": {
     "type": [
      "object",
      "null"
     ]
    }
   },
   "required": [
    "artifactId",
    "byteCount",
    "contentType",
    "createdAt",
    "expiresAt",
    "format",
    "generation",
    "id",
    "kind",
    "occurrenceId",
    "projectId",
    "redaction",
    "sha256",
    "state"
   ],
   "additionalProperties": false
  },
  "ArtifactEnvelope": {
   "type": "object",
   "properties": {
    "artifact": {
     "$ref": "#/components/schemas/Artifact"
    }
   },
   "required": [
    "artifact"
   ],
   "additionalProperties": true
  },
  "ArtifactList": {
   "type": "object",
   "properties": {
    "artifacts": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Artifact"
     }
    },
    "total": {
     "type": "integer"
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    }
   },
   "required": [
    "artifacts",
    "limit",
    "offset",
    "total"
   ],
   "additionalProperties": false
  },
  "EvidenceCapabilities": {
   "type": "object",
   "properties": {
    "schemaVersion": {},
    "configured": {
     "type": "boolean"
    },
    "formats": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "kind": {
        "type": "string"
       },
       "contentType": {
        "type": "string"
       },
       "maxBytes": {
        "type": "integer"
       }
      },
      "required": [
       "contentType",
       "kind",
       "maxBytes"
      ],
      "additionalProperties": false
     }
    },
    "reason": {
     "type": [
      "string",
      "null"
     ]
    },
    "projectId": {
     "type": "string"
    }
   },
   "required": [
    "configured",
    "formats",
    "reason",
    "schemaVersion"
   ],
   "additionalProperties": false
  }
 },
 "routes": {
  "DELETE /v1/admin/support/session/:id": {
   "tag": "admin",
   "summary": "End a support session",
   "responses": {
    "200": "OpenObject"
   }
  },
  "DELETE /v1/applications/projects/:projectId/:applicationId": {
   "tag": "applications",
   "summary": "Delete an application",
   "responses": {
    "200": "Success"
   }
  },
  "DELETE /v1/applications/projects/:projectId/:applicationId/installations/:installationId": {
   "tag": "applications",
   "summary": "Delete an installation",
   "responses": {
    "200": "Success"
   }
  },
  "DELETE /v1/bugs/:id": {
   "tag": "triage",
   "summary": "Delete a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "DELETE /v1/bugs/:id/watch": {
   "tag": "triage",
   "summary": "Stop watching a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "DELETE /v1/evidence/projects/:projectId/artifacts/:artifactId": {
   "tag": "evidence",
   "summary": "Delete an artifact",
   "responses": {
    "200": "ArtifactEnvelope"
   },
   "security": "jwtOrAgent"
  },
  "DELETE /v1/integrations/:id": {
   "tag": "integrations",
   "summary": "Delete an integration",
   "responses": {
    "200": "Success"
   }
  },
  "DELETE /v1/mcp": {
   "tag": "agents",
   "summary": "Not offered: 405",
   "responses": {
    "405": "Error"
   }
  },
  "DELETE /v1/org/agent-pats/:id": {
   "tag": "agents",
   "summary": "Revoke an agent token",
   "responses": {
    "200": "AgentTokenRevoked"
   }
  },
  "DELETE /v1/projects/:id/keys/:keyId": {
   "tag": "projects",
   "summary": "Revoke a capture key",
   "responses": {
    "200": "Success"
   }
  },
  "DELETE /v1/team/:userId": {
   "tag": "team",
   "summary": "Remove a member",
   "responses": {
    "200": "Success"
   }
  },
  "DELETE /v1/tickets/:id": {
   "tag": "tickets",
   "summary": "Delete a ticket",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /api/0/organizations/:org/chunk-upload": {
   "tag": "sourcemaps",
   "summary": "sentry-cli chunk upload options",
   "responses": {
    "200": "OpenObject"
   },
   "aliases": [
    "/api/0/organizations/:org/chunk-upload/"
   ],
   "errorSchema": "SentryError"
  },
  "GET /metrics": {
   "tag": "meta",
   "summary": "Prometheus metrics (when SERVICE_METRICS is on)",
   "responses": {
    "200": "#text"
   },
   "optional": true
  },
  "GET /v1/admin/activity": {
   "tag": "admin",
   "summary": "Superadmin: activity",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/ai-usage": {
   "tag": "admin",
   "summary": "Superadmin: ai-usage",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/api-key-stats": {
   "tag": "admin",
   "summary": "Superadmin: api-key-stats",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/api-keys": {
   "tag": "admin",
   "summary": "Superadmin: api-keys",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/customers": {
   "tag": "admin",
   "summary": "Superadmin: customers",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/customers/:orgId": {
   "tag": "admin",
   "summary": "Superadmin: customers/orgId",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/db/tables": {
   "tag": "admin",
   "summary": "Superadmin: db/tables",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/db/tables/:table": {
   "tag": "admin",
   "summary": "Superadmin: db/tables/table",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/organizations": {
   "tag": "admin",
   "summary": "Superadmin: organizations",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/overview": {
   "tag": "admin",
   "summary": "Superadmin: overview",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/projects": {
   "tag": "admin",
   "summary": "Superadmin: projects",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/users": {
   "tag": "admin",
   "summary": "Superadmin: users",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/waitlist": {
   "tag": "admin",
   "summary": "Superadmin: waitlist",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin"
  },
  "GET /v1/agent-work/claims": {
   "tag": "agents",
   "summary": "Read a claim",
   "responses": {
    "200": "ClaimEnvelope"
   },
   "query": [
    {
     "name": "claimId",
     "description": "The claim"
    }
   ]
  },
  "GET /v1/agent-work/symbols/projects/:projectId/builds/:buildId/files": {
   "tag": "symbols",
   "summary": "Symbol files of a build",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/agent-work/symbols/projects/:projectId/files/:fileId": {
   "tag": "symbols",
   "summary": "One symbol file",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/agent-work/verification/enrollment": {
   "tag": "verification",
   "summary": "Enrolled runners and devices",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/agent-work/verification/receipts/:receiptId": {
   "tag": "verification",
   "summary": "One receipt",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/agent-work/verification/receipts/:receiptId/evidence": {
   "tag": "verification",
   "summary": "Evidence of one receipt",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/alerts/digests": {
   "tag": "integrations",
   "summary": "Alert digest batches",
   "responses": {
    "200": "OpenObject"
   },
   "optional": true
  },
  "GET /v1/alerts/overview": {
   "tag": "integrations",
   "summary": "Alert overview",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/alerts/policy": {
   "tag": "integrations",
   "summary": "Alert policy",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/applications/projects/:projectId": {
   "tag": "applications",
   "summary": "Applications of a project",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/applications/projects/:projectId/:applicationId/builds": {
   "tag": "applications",
   "summary": "Builds of an application",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/applications/projects/:projectId/:applicationId/installations": {
   "tag": "applications",
   "summary": "Installations of an application",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/applications/projects/:projectId/:applicationId/installations/:installationId/capture-status": {
   "tag": "applications",
   "summary": "First capture of an installation",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/auth/agent-context": {
   "tag": "agents",
   "summary": "The agent token's own context",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/auth/approval/:token": {
   "tag": "accounts",
   "summary": "Read a waitlist approval",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/auth/data-export/:token": {
   "tag": "accounts",
   "summary": "Download a data export",
   "responses": {
    "200": "#json"
   }
  },
  "GET /v1/auth/me": {
   "tag": "accounts",
   "summary": "The caller, with organizations",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/auth/whats-new": {
   "tag": "accounts",
   "summary": "Product news for the caller",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/billing/budget": {
   "tag": "operations",
   "summary": "Monthly budget",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/billing/subscription": {
   "tag": "operations",
   "summary": "Plan and subscription",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs": {
   "tag": "bugs",
   "summary": "List bugs",
   "responses": {
    "200": "BugList"
   }
  },
  "GET /v1/bugs/:id": {
   "tag": "bugs",
   "summary": "One bug with reporters, recent occurrences and verification",
   "responses": {
    "200": "BugDetail"
   }
  },
  "GET /v1/bugs/:id/agent-status": {
   "tag": "agents",
   "summary": "Agent hand-off status of a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/:id/anomalies": {
   "tag": "bugs",
   "summary": "Anomalies of a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/:id/comments": {
   "tag": "bugs",
   "summary": "Comments on a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/:id/events": {
   "tag": "bugs",
   "summary": "Events (breadcrumbs, logs) of a bug",
   "responses": {
    "200": "EventList"
   }
  },
  "GET /v1/bugs/:id/history": {
   "tag": "bugs",
   "summary": "History of a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/:id/occurrences": {
   "tag": "bugs",
   "summary": "Occurrences of a bug",
   "responses": {
    "200": "OccurrenceList"
   }
  },
  "GET /v1/bugs/:id/similar": {
   "tag": "bugs",
   "summary": "Similar bugs",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/:id/users": {
   "tag": "bugs",
   "summary": "Affected end users of a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/:id/verification": {
   "tag": "verification",
   "summary": "Verification state of a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/:id/watching": {
   "tag": "bugs",
   "summary": "Whether the caller watches a bug",
   "responses": {
    "200": "Watching"
   }
  },
  "GET /v1/bugs/export": {
   "tag": "bugs",
   "summary": "Export bugs (JSON or CSV)",
   "responses": {
    "200": "#csv"
   }
  },
  "GET /v1/bugs/groups": {
   "tag": "bugs",
   "summary": "Grouped bugs",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/groups/:groupKey/instances": {
   "tag": "bugs",
   "summary": "Bugs of one group",
   "responses": {
    "200": "OpenObject"
   },
   "errors": [
    "409"
   ]
  },
  "GET /v1/bugs/live": {
   "tag": "bugs",
   "summary": "Live bug feed",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/presence": {
   "tag": "capture",
   "summary": "Who is present",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/recommended": {
   "tag": "bugs",
   "summary": "Recommended bugs",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/reporters/:email/bugs": {
   "tag": "bugs",
   "summary": "Bugs of one reporter",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/search": {
   "tag": "bugs",
   "summary": "Search bugs",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/stats": {
   "tag": "bugs",
   "summary": "Bug statistics",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/bugs/stream": {
   "tag": "bugs",
   "summary": "Server-sent events of bug changes",
   "responses": {
    "200": "#sse"
   }
  },
  "GET /v1/end-users": {
   "tag": "bugs",
   "summary": "End users",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/end-users/:userKey/timeline": {
   "tag": "bugs",
   "summary": "Timeline of one end user",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/evidence/capabilities": {
   "tag": "evidence",
   "summary": "Evidence formats and storage state",
   "responses": {
    "200": "EvidenceCapabilities"
   },
   "security": "jwtOrAgent"
  },
  "GET /v1/evidence/projects/:projectId/artifacts/:artifactId": {
   "tag": "evidence",
   "summary": "One artifact",
   "responses": {
    "200": "ArtifactEnvelope"
   },
   "security": "jwtOrAgent"
  },
  "GET /v1/evidence/projects/:projectId/artifacts/:artifactId/content": {
   "tag": "evidence",
   "summary": "Download an artifact's bytes",
   "responses": {
    "200": "#anybinary"
   },
   "security": "jwtOrAgent"
  },
  "GET /v1/evidence/projects/:projectId/occurrences/:occurrenceId/artifacts": {
   "tag": "evidence",
   "summary": "Artifacts of an occurrence",
   "responses": {
    "200": "ArtifactList"
   },
   "security": "jwtOrAgent"
  },
  "GET /v1/health": {
   "tag": "health",
   "summary": "Liveness",
   "responses": {
    "200": "Health",
    "503": "Health"
   }
  },
  "GET /v1/health/deep": {
   "tag": "health",
   "summary": "Readiness with per-dependency checks",
   "responses": {
    "200": "DeepHealth",
    "503": "DeepHealth"
   }
  },
  "GET /v1/integrations": {
   "tag": "integrations",
   "summary": "Integrations and webhooks",
   "responses": {
    "200": "IntegrationList"
   }
  },
  "GET /v1/integrations/:id/deliveries": {
   "tag": "integrations",
   "summary": "Deliveries of an integration",
   "responses": {
    "200": "DeliveryList"
   }
  },
  "GET /v1/mcp": {
   "tag": "agents",
   "summary": "Not offered: 405",
   "responses": {
    "405": "Error"
   }
  },
  "GET /v1/notifications": {
   "tag": "notifications",
   "summary": "The caller's notifications",
   "responses": {
    "200": "NotificationList"
   }
  },
  "GET /v1/openapi.json": {
   "tag": "meta",
   "summary": "This OpenAPI 3.1 document",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/org/agent-pats": {
   "tag": "agents",
   "summary": "Agent tokens of the organization",
   "responses": {
    "200": "AgentTokenList"
   }
  },
  "GET /v1/org/support-sessions": {
   "tag": "admin",
   "summary": "Support sessions of the organization",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/org/usage": {
   "tag": "operations",
   "summary": "Usage of the organization",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/portfolio/overview": {
   "tag": "operations",
   "summary": "Every organization of the caller with its figures",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/projects": {
   "tag": "projects",
   "summary": "Projects of the organization",
   "responses": {
    "200": "ProjectList"
   }
  },
  "GET /v1/projects/:id/agent-notifications": {
   "tag": "agents",
   "summary": "Agent notification queue of a project",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/projects/:id/agent-settings": {
   "tag": "agents",
   "summary": "Agent settings of a project",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/projects/:id/keys": {
   "tag": "projects",
   "summary": "Masked capture keys",
   "responses": {
    "200": "CaptureKeyList"
   }
  },
  "GET /v1/projects/:id/scrubbing": {
   "tag": "capture",
   "summary": "Scrubbing rules",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/bundles": {
   "tag": "sourcemaps",
   "summary": "Source map bundles",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/bundles/:bundleId": {
   "tag": "sourcemaps",
   "summary": "One bundle",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/debug-ids": {
   "tag": "sourcemaps",
   "summary": "Debug ids",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/releases": {
   "tag": "sourcemaps",
   "summary": "Releases with source maps",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/team": {
   "tag": "team",
   "summary": "Members of the organization",
   "responses": {
    "200": "MemberList"
   }
  },
  "GET /v1/team/:userId/notifications": {
   "tag": "notifications",
   "summary": "Notification preferences",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/team/activity": {
   "tag": "team",
   "summary": "Recent team activity",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/tickets": {
   "tag": "tickets",
   "summary": "Tickets",
   "responses": {
    "200": "OpenObject"
   }
  },
  "GET /v1/tickets/:id": {
   "tag": "tickets",
   "summary": "One ticket",
   "responses": {
    "200": "OpenObject"
   }
  },
  "PATCH /v1/admin/customers/:orgId": {
   "tag": "admin",
   "summary": "Superadmin: customers/orgId",
   "responses": {
    "200": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "PATCH /v1/bugs/:id": {
   "tag": "triage",
   "summary": "Update a bug (status, severity, assignee)",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PATCH /v1/bugs/bulk": {
   "tag": "triage",
   "summary": "Update many bugs",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PATCH /v1/integrations/:id": {
   "tag": "integrations",
   "summary": "Change an integration",
   "responses": {
    "200": "Integration"
   },
   "request": "OpenObject"
  },
  "PATCH /v1/org/agent-pats/:id": {
   "tag": "agents",
   "summary": "Change an agent token",
   "responses": {
    "200": "AgentTokenOne"
   },
   "request": "OpenObject"
  },
  "PATCH /v1/team/:userId": {
   "tag": "team",
   "summary": "Change a member's role",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PATCH /v1/team/:userId/notifications": {
   "tag": "notifications",
   "summary": "Change notification preferences",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PATCH /v1/tickets/:id": {
   "tag": "tickets",
   "summary": "Change a ticket",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /api/0/organizations/:org/artifactbundle/assemble": {
   "tag": "sourcemaps",
   "summary": "Assemble an artifact bundle",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject",
   "aliases": [
    "/api/0/organizations/:org/artifactbundle/assemble/"
   ],
   "errorSchema": "SentryError"
  },
  "POST /api/0/organizations/:org/chunk-upload": {
   "tag": "sourcemaps",
   "summary": "sentry-cli chunk upload",
   "responses": {
    "200": "#empty"
   },
   "request": "#multipart",
   "aliases": [
    "/api/0/organizations/:org/chunk-upload/"
   ],
   "errorSchema": "SentryError"
  },
  "POST /api/:projectNumber/envelope": {
   "tag": "sentry",
   "summary": "Sentry envelope endpoint",
   "responses": {
    "200": "OpenObject"
   },
   "request": "#binary",
   "security": "sentry",
   "aliases": [
    "/api/:projectNumber/envelope/"
   ],
   "errorSchema": "SentryError"
  },
  "POST /api/:projectNumber/store": {
   "tag": "sentry",
   "summary": "Sentry store endpoint",
   "responses": {
    "200": "OpenObject"
   },
   "request": "#binary",
   "security": "sentry",
   "aliases": [
)catalogue",
    R"catalogue(    "/api/:projectNumber/store/"
   ],
   "errorSchema": "SentryError"
  },
  "POST /v1/admin/backfill-signatures": {
   "tag": "admin",
   "summary": "Superadmin: backfill-signatures",
   "responses": {
    "2XX": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/admin/customers": {
   "tag": "admin",
   "summary": "Superadmin: customers",
   "responses": {
    "2XX": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/admin/customers/:orgId/team": {
   "tag": "admin",
   "summary": "Superadmin: customers/orgId/team",
   "responses": {
    "2XX": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/admin/gdpr/delete-org": {
   "tag": "admin",
   "summary": "Superadmin: gdpr/delete-org",
   "responses": {
    "2XX": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/admin/support/session": {
   "tag": "admin",
   "summary": "Open a support session",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/admin/waitlist/:id/approve": {
   "tag": "admin",
   "summary": "Superadmin: waitlist/id/approve",
   "responses": {
    "2XX": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/admin/waitlist/:id/reject": {
   "tag": "admin",
   "summary": "Superadmin: waitlist/id/reject",
   "responses": {
    "2XX": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/admin/waitlist/:id/resend": {
   "tag": "admin",
   "summary": "Superadmin: waitlist/id/resend",
   "responses": {
    "2XX": "OpenObject"
   },
   "security": "superadmin",
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/agent-work/claims": {
   "tag": "agents",
   "summary": "Claim a bug",
   "responses": {
    "200": "ClaimEnvelope",
    "201": "ClaimEnvelope"
   },
   "request": "OpenObject"
  },
  "POST /v1/agent-work/claims/complete": {
   "tag": "agents",
   "summary": "Complete a claim",
   "responses": {
    "200": "ClaimEnvelope"
   },
   "request": "OpenObject",
   "errors": [
    "409"
   ]
  },
  "POST /v1/agent-work/claims/release": {
   "tag": "agents",
   "summary": "Release a claim",
   "responses": {
    "200": "ClaimEnvelope"
   },
   "request": "OpenObject",
   "errors": [
    "409"
   ]
  },
  "POST /v1/agent-work/claims/renew": {
   "tag": "agents",
   "summary": "Renew a claim's lease",
   "responses": {
    "200": "ClaimEnvelope"
   },
   "request": "OpenObject",
   "errors": [
    "409"
   ]
  },
  "POST /v1/agent-work/symbols/projects/:projectId/builds/:buildId/files": {
   "tag": "symbols",
   "summary": "Publish a symbol file",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "#binary"
  },
  "POST /v1/agent-work/verification/challenges": {
   "tag": "verification",
   "summary": "Ask for a verification challenge",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/agent-work/verification/devices": {
   "tag": "verification",
   "summary": "Enroll a verification device",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/agent-work/verification/devices/revoke": {
   "tag": "verification",
   "summary": "Revoke a device",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/agent-work/verification/promote": {
   "tag": "verification",
   "summary": "Promote a verified fix",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/agent-work/verification/receipts": {
   "tag": "verification",
   "summary": "Submit a signed receipt",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/agent-work/verification/runners": {
   "tag": "verification",
   "summary": "Enroll a verification runner",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/agent-work/verification/runners/revoke": {
   "tag": "verification",
   "summary": "Revoke a runner",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/alerts/digests/:batchId/resolution": {
   "tag": "integrations",
   "summary": "Resolve an alert digest batch",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject",
   "optional": true
  },
  "POST /v1/alerts/preview": {
   "tag": "integrations",
   "summary": "Preview alerts for a policy",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/applications/projects/:projectId": {
   "tag": "applications",
   "summary": "Register an application",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/applications/projects/:projectId/:applicationId/builds": {
   "tag": "applications",
   "summary": "Register a build",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/applications/projects/:projectId/:applicationId/installations": {
   "tag": "applications",
   "summary": "Register an installation",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/api-key-session": {
   "tag": "accounts",
   "summary": "Exchange a capture key for a short session",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/complete-signup": {
   "tag": "accounts",
   "summary": "Complete a signup from an approval",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/data-delete/confirm": {
   "tag": "accounts",
   "summary": "Confirm account deletion",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/data-delete/request": {
   "tag": "accounts",
   "summary": "Request account deletion",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/auth/data-export": {
   "tag": "accounts",
   "summary": "Request a personal data export",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/auth/forgot-password": {
   "tag": "accounts",
   "summary": "Ask for a password reset mail",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/invitations/accept": {
   "tag": "accounts",
   "summary": "Accept an invitation",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/invitations/inspect": {
   "tag": "accounts",
   "summary": "Inspect an invitation token",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/login": {
   "tag": "accounts",
   "summary": "Log in with email and password",
   "responses": {
    "200": "SessionTokens"
   },
   "request": "LoginRequest"
  },
  "POST /v1/auth/refresh": {
   "tag": "accounts",
   "summary": "Rotate the refresh token",
   "responses": {
    "200": "SessionTokens"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/register": {
   "tag": "accounts",
   "summary": "Register an account",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/resend-verification": {
   "tag": "accounts",
   "summary": "Resend the verification mail",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/reset-password": {
   "tag": "accounts",
   "summary": "Reset the password with a mailed token",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/send-verification": {
   "tag": "accounts",
   "summary": "Send the email verification mail",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/auth/switch-org": {
   "tag": "accounts",
   "summary": "Switch the session's organization",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/verify-email": {
   "tag": "accounts",
   "summary": "Verify an email address",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/waitlist": {
   "tag": "accounts",
   "summary": "Join the waitlist",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/billing/card-setup-session": {
   "tag": "operations",
   "summary": "Start a card setup",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/billing/create-checkout-session": {
   "tag": "operations",
   "summary": "Start a checkout",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/billing/portal": {
   "tag": "operations",
   "summary": "Open the billing portal",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/billing/webhook": {
   "tag": "operations",
   "summary": "Payment provider webhook (signed)",
   "responses": {
    "200": "OpenObject"
   },
   "request": "#json"
  },
  "POST /v1/bugs": {
   "tag": "capture",
   "summary": "Report a bug (alias of /v1/ingest)",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject",
   "errors": [
    "402"
   ]
  },
  "POST /v1/bugs/:id/ack": {
   "tag": "agents",
   "summary": "Agent acknowledgement of a bug",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/bugs/:id/analyze": {
   "tag": "ai",
   "summary": "AI analysis of a bug",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/bugs/:id/comments": {
   "tag": "triage",
   "summary": "Comment on a bug",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/bugs/:id/events/:eventId/ai": {
   "tag": "ai",
   "summary": "AI assessment of an event",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/bugs/:id/notify-agent": {
   "tag": "agents",
   "summary": "Hand a bug to the coding agent",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/bugs/:id/watch": {
   "tag": "triage",
   "summary": "Watch a bug",
   "responses": {
    "200": "OpenObject"
   }
  },
  "POST /v1/bugs/ai-summary": {
   "tag": "ai",
   "summary": "Attach an AI summary (alias)",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/bugs/manual": {
   "tag": "capture",
   "summary": "Create a bug by hand",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/bugs/merge": {
   "tag": "triage",
   "summary": "Merge bugs",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/bugs/presence": {
   "tag": "capture",
   "summary": "Presence heartbeat (alias)",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/evidence/projects/:projectId/artifacts": {
   "tag": "evidence",
   "summary": "Reserve an artifact",
   "responses": {
    "2XX": "ArtifactEnvelope"
   },
   "request": "OpenObject",
   "security": "jwtOrAgent"
  },
  "POST /v1/ingest": {
   "tag": "capture",
   "summary": "Report a bug (capture key)",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject",
   "errors": [
    "402"
   ]
  },
  "POST /v1/ingest/ai-summary": {
   "tag": "ai",
   "summary": "Attach an AI summary (capture key)",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/ingest/presence": {
   "tag": "capture",
   "summary": "Presence heartbeat",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/integrations": {
   "tag": "integrations",
   "summary": "Create an integration or webhook",
   "responses": {
    "201": "IntegrationCreated"
   },
   "request": "OpenObject"
  },
  "POST /v1/integrations/:id/deliveries/:deliveryId/retry": {
   "tag": "integrations",
   "summary": "Retry a delivery",
   "responses": {
    "200": "Success"
   }
  },
  "POST /v1/integrations/:id/rotate-secret": {
   "tag": "integrations",
   "summary": "Rotate the signing secret",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/integrations/:id/test": {
   "tag": "integrations",
   "summary": "Send a test delivery",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/mcp": {
   "tag": "agents",
   "summary": "Model Context Protocol (streamable HTTP, JSON-RPC)",
   "responses": {
    "200": "#json",
    "202": "#empty"
   },
   "request": "#json"
  },
  "POST /v1/notifications/:id/read": {
   "tag": "notifications",
   "summary": "Mark one notification read",
   "responses": {
    "200": "Success"
   }
  },
  "POST /v1/notifications/read-all": {
   "tag": "notifications",
   "summary": "Mark every notification read",
   "responses": {
    "200": "Success"
   }
  },
  "POST /v1/org/agent-pats": {
   "tag": "agents",
   "summary": "Create an agent token (secret shown once)",
   "responses": {
    "201": "AgentTokenCreated"
   },
   "request": "OpenObject"
  },
  "POST /v1/projects": {
   "tag": "projects",
   "summary": "Create a project",
   "responses": {
    "201": "Project"
   },
   "request": "OpenObject"
  },
  "POST /v1/projects/:id/keys": {
   "tag": "projects",
   "summary": "Create a capture key",
   "responses": {
    "201": "CaptureKeyCreated"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/projects/:id/test-event": {
   "tag": "capture",
   "summary": "Send a setup-check event",
   "responses": {
    "201": "OpenObject"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/team/invite": {
   "tag": "team",
   "summary": "Invite a member",
   "responses": {
    "201": "Invitation"
   },
   "request": "InviteRequest"
  },
  "POST /v1/tickets": {
   "tag": "tickets",
   "summary": "Create a ticket",
   "responses": {
    "2XX": "OpenObject"
   },
   "request": "OpenObject"
  },
  "POST /v1/tickets/:id/move": {
   "tag": "tickets",
   "summary": "Move a ticket",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PUT /v1/alerts/policy": {
   "tag": "integrations",
   "summary": "Replace the alert policy",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PUT /v1/billing/budget": {
   "tag": "operations",
   "summary": "Change the monthly budget",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PUT /v1/evidence/projects/:projectId/artifacts/:artifactId/content": {
   "tag": "evidence",
   "summary": "Upload an artifact's bytes",
   "responses": {
    "2XX": "ArtifactEnvelope"
   },
   "request": "#anybinary",
   "security": "jwtOrAgent"
  },
  "PUT /v1/projects/:id/agent-settings": {
   "tag": "agents",
   "summary": "Replace agent settings",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  },
  "PUT /v1/projects/:id/scrubbing": {
   "tag": "capture",
   "summary": "Replace scrubbing rules",
   "responses": {
    "200": "OpenObject"
   },
   "request": "OpenObject"
  }
 }
}
)catalogue",
};

}  // namespace

const std::string& CatalogueText() {
  static const std::string text = [] {
    std::string t;
    for (const char* p : kPieces) t += p;
    return t;
  }();
  return text;
}

}  // namespace service::api::openapi
