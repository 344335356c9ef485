// The OpenAPI catalogue (openapi_document.h): per route "METHOD pattern" its tag, summary, query
// parameters, request body and responses; the component schemas (JSON Schema 2020-12), the security
// schemes and the tags. A route registered without an entry here fails tests/api/openapi_test.cpp.
// Response values: a schema name (application/json), or "#binary", "#anybinary", "#multipart", "#sse",
// "#text", "#csv" ("#csv:Name": its JSON form is the schema Name), "#json",
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
    },
    "requestId": {
     "type": "string",
     "description": "On 503: the request id of the failure (as on every 5xx)."
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
    },
    "requestId": {
     "type": "string",
     "description": "On 503: the request id of the failure (as on every 5xx)."
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
   "properties": {
    "accessToken": {
     "type": "string"
    },
    "org": {
     "type": "object",
     "properties": {
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "name": {
       "type": "string"
      },
      "role": {
       "type": "string"
      }
     },
     "required": [
      "id",
      "name"
     ],
     "additionalProperties": true
    },
    "refreshToken": {
     "type": "string"
    },
    "user": {
     "type": "object",
     "properties": {
      "email": {
       "type": "string"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "name": {
       "type": "string"
      }
     },
     "required": [
      "email",
      "id",
      "name"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "accessToken",
    "refreshToken"
   ],
   "additionalProperties": true,
   "description": "Access and refresh tokens with the user and organization (accounts_routes TokensJson)."
  },
)catalogue",
    R"catalogue(  "EmailAddress": {
   "type": "string",
   "format": "email",
   "maxLength": 254,
   "description": "A valid email address (required)."
  },
  "NewPassword": {
   "type": "string",
   "minLength": 8,
   "description": "Must satisfy the password policy."
  },
  "DisplayName": {
   "type": "string",
   "maxLength": 200,
   "description": "A person or organization name (required, not blank)."
  },
  "RegisterRequest": {
   "type": "object",
   "properties": {
    "email": {
     "$ref": "#/components/schemas/EmailAddress"
    },
    "password": {
     "$ref": "#/components/schemas/NewPassword"
    },
    "name": {
     "$ref": "#/components/schemas/DisplayName"
    },
    "orgName": {
     "$ref": "#/components/schemas/DisplayName"
    }
   },
   "required": [
    "email",
    "password",
    "name",
    "orgName"
   ],
   "additionalProperties": true
  },
  "WaitlistRequest": {
   "type": "object",
   "properties": {
    "email": {
     "$ref": "#/components/schemas/EmailAddress"
    },
    "name": {
     "$ref": "#/components/schemas/DisplayName"
    },
    "orgName": {
     "$ref": "#/components/schemas/DisplayName"
    },
    "useCase": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    }
   },
   "required": [
    "email",
    "name",
    "orgName"
   ],
   "additionalProperties": true
  },
  "CompleteSignupRequest": {
   "type": "object",
   "properties": {
    "token": {
     "type": "string",
     "maxLength": 256
    },
    "name": {
     "$ref": "#/components/schemas/DisplayName"
    },
    "password": {
     "$ref": "#/components/schemas/NewPassword"
    }
   },
   "required": [
    "token",
    "name",
    "password"
   ],
   "additionalProperties": true
  },
  "TokenRequest": {
   "type": "object",
   "properties": {
    "token": {
     "type": "string",
     "pattern": "\\S",
     "description": "Required, not blank."
    }
   },
   "required": [
    "token"
   ],
   "additionalProperties": true
  },
  "AcceptInvitationRequest": {
   "type": "object",
   "properties": {
    "token": {
     "type": "string",
     "maxLength": 256
    },
    "email": {
     "$ref": "#/components/schemas/EmailAddress"
    },
    "newPassword": {
     "$ref": "#/components/schemas/NewPassword"
    }
   },
   "required": [
    "token",
    "email",
    "newPassword"
   ],
   "additionalProperties": true
  },
  "RefreshRequest": {
   "type": "object",
   "properties": {
    "refreshToken": {
     "type": "string",
     "pattern": "\\S",
     "description": "Required, not blank."
    }
   },
   "required": [
    "refreshToken"
   ],
   "additionalProperties": true
  },
  "EmailRequest": {
   "type": "object",
   "properties": {
    "email": {
     "$ref": "#/components/schemas/EmailAddress"
    }
   },
   "required": [
    "email"
   ],
   "additionalProperties": true
  },
  "ResetPasswordRequest": {
   "type": "object",
   "properties": {
    "token": {
     "type": "string",
     "maxLength": 256
    },
    "email": {
     "$ref": "#/components/schemas/EmailAddress"
    },
    "newPassword": {
     "$ref": "#/components/schemas/NewPassword"
    }
   },
   "required": [
    "token",
    "email",
    "newPassword"
   ],
   "additionalProperties": true
  },
  "SwitchOrgRequest": {
   "type": "object",
   "properties": {
    "orgId": {
     "type": "string",
     "format": "uuid"
    }
   },
   "required": [
    "orgId"
   ],
   "additionalProperties": true
  },
  "ChangeRoleRequest": {
   "type": "object",
   "properties": {
    "role": {
     "enum": [
      "admin",
      "manager",
      "member",
      "tester",
      "viewer"
     ]
    }
   },
   "required": [
    "role"
   ],
   "additionalProperties": true
  },
  "TicketStatus": {
   "enum": [
    "backlog",
    "todo",
    "in_progress",
    "review",
    "done"
   ]
  },
  "TicketCreateRequest": {
   "type": "object",
   "properties": {
    "title": {
     "type": "string",
     "minLength": 1,
     "maxLength": 500
    },
    "description": {
     "type": "string",
     "maxLength": 10000
    },
    "status": {
     "$ref": "#/components/schemas/TicketStatus"
    },
    "bugId": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid"
    },
    "assigneeId": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid"
    }
   },
   "required": [
    "title"
   ],
   "additionalProperties": false
  },
  "TicketPatchRequest": {
   "type": "object",
   "properties": {
    "title": {
     "type": "string",
     "minLength": 1,
     "maxLength": 500
    },
    "description": {
     "type": "string",
     "maxLength": 10000
    },
    "status": {
     "$ref": "#/components/schemas/TicketStatus"
    },
    "bugId": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid"
    },
    "assigneeId": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid"
    }
   },
   "additionalProperties": false,
   "minProperties": 1
  },
  "TicketMoveRequest": {
   "type": "object",
   "properties": {
    "status": {
     "$ref": "#/components/schemas/TicketStatus"
    },
    "position": {
     "type": "integer",
     "minimum": 0,
     "maximum": 1000000000
    }
   },
   "required": [
    "status",
    "position"
   ],
   "additionalProperties": false
  },
)catalogue",
    R"catalogue()catalogue",
    R"catalogue(  "BugPatchRequest": {
   "type": "object",
   "properties": {
    "status": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "new",
      "known",
      "working",
      "resolved",
      "silenced",
      null
     ]
    },
    "severity": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "critical",
      "high",
      "medium",
      "low",
      null
     ]
    },
    "note": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    },
    "assignedTo": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid",
     "description": "A member's user id; null unassigns."
    }
   },
   "additionalProperties": true
  },
  "BugBulkPatchRequest": {
   "type": "object",
   "properties": {
    "status": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "new",
      "known",
      "working",
      "resolved",
      "silenced",
      null
     ]
    },
    "severity": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "critical",
      "high",
      "medium",
      "low",
      null
     ]
    },
    "note": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    },
    "assignedTo": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid",
     "description": "A member's user id; null unassigns."
    },
    "ids": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 100,
     "items": {
      "type": "string",
      "format": "uuid"
     }
    },
    "groupKeys": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 100,
     "items": {
      "type": "string",
      "minLength": 1,
      "maxLength": 200
     }
    },
    "groupRefs": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 100,
     "items": {
      "type": "object",
      "properties": {
       "projectId": {
        "type": "string",
        "format": "uuid"
       },
       "groupKey": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200
       }
      },
      "required": [
       "projectId",
       "groupKey"
      ],
      "additionalProperties": true
     }
    }
   },
   "additionalProperties": true,
   "allOf": [
    {
     "anyOf": [
      {
       "required": [
        "ids"
       ],
       "properties": {
        "ids": {
         "type": "array",
         "minItems": 1
        }
       }
      },
      {
       "required": [
        "groupRefs"
       ],
       "properties": {
        "groupRefs": {
         "type": "array",
         "minItems": 1
        }
       }
      },
      {
       "required": [
        "groupKeys"
       ],
       "properties": {
        "groupKeys": {
         "type": "array",
         "minItems": 1
        }
       }
      }
     ]
    },
    {
     "anyOf": [
      {
       "required": [
        "status"
       ],
       "properties": {
        "status": {
         "type": "string"
        }
       }
      },
      {
       "required": [
        "severity"
       ],
       "properties": {
        "severity": {
         "type": "string"
        }
       }
      },
      {
       "required": [
        "assignedTo"
       ]
      }
     ]
    }
   ]
  },
  "BugMergeRequest": {
   "type": "object",
   "properties": {
    "targetId": {
     "type": "string",
     "minLength": 1
    },
    "sourceIds": {
     "type": "array",
     "minItems": 1,
     "items": {
      "type": "string",
      "minLength": 1
     }
    }
   },
   "required": [
    "targetId",
    "sourceIds"
   ],
   "additionalProperties": true
  },
  "BugCommentRequest": {
   "type": "object",
   "properties": {
    "content": {
     "type": "string",
     "pattern": "\\S",
     "maxLength": 10000
    }
   },
   "required": [
    "content"
   ],
   "additionalProperties": true
  },
  "AgentTokenScopes": {
   "type": "array",
   "minItems": 1,
   "maxItems": 10,
   "items": {
    "enum": [
     "claim_issue",
     "request_evidence",
     "submit_verification",
     "read_verification",
     "create_bug",
     "get_repro_context",
     "publish_symbols",
     "suggest_fix",
     "subscribe",
     "read_bugs"
    ]
   }
  },
  "AgentTokenCreateRequest": {
   "type": "object",
   "properties": {
    "name": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    },
    "scopes": {
     "$ref": "#/components/schemas/AgentTokenScopes"
    },
    "expiresAt": {
     "type": "string",
     "format": "date-time"
    },
    "projectGrants": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 100,
     "items": {
      "type": "object",
      "properties": {
       "projectId": {
        "type": "string",
        "format": "uuid"
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
       "projectId"
      ],
      "additionalProperties": false
     }
    }
   },
   "required": [
    "scopes",
    "expiresAt"
   ],
   "additionalProperties": false
  },
  "AgentTokenPatchRequest": {
   "type": "object",
   "properties": {
    "name": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    },
    "scopes": {
     "anyOf": [
      {
       "$ref": "#/components/schemas/AgentTokenScopes"
      },
      {
       "type": "null"
      }
     ]
    },
    "expiresAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time"
    },
    "projectGrants": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 100,
     "items": {
      "type": "object",
      "properties": {
       "projectId": {
        "type": "string",
        "format": "uuid"
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
       "projectId"
      ],
      "additionalProperties": false
     }
    },
    "expectedRevision": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    }
   },
   "additionalProperties": false
  },
  "NotificationPreferencesPatchRequest": {
   "type": "object",
   "properties": {
    "emailLevel": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "full",
      "notification",
      "digest",
      "off",
      null
     ]
    },
    "digestFreq": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "realtime",
      "hourly",
      "daily",
      null
     ]
    },
    "chatEnabled": {
     "type": [
      "boolean",
      "null"
     ]
    },
    "inAppEnabled": {
     "type": [
      "boolean",
      "null"
     ]
    },
    "chatWebhook": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000,
     "description": "An http or https URL; null or \"\" removes it."
    }
   },
   "additionalProperties": true
  },
  "IntegrationCreateRequest": {
   "type": "object",
   "properties": {
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "type": {
     "enum": [
      "webhook",
      "agent",
      "chat_a",
      "chat_b",
      "chat_c",
      "chat_d",
      "code_host",
      "bridge"
     ]
    },
    "name": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "config": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "url": {
       "type": "string",
       "maxLength": 4096
      },
      "secret": {
       "type": "string",
       "maxLength": 4096
      },
      "token": {
       "type": "string",
       "maxLength": 4096
      },
      "repo": {
       "type": "string",
       "maxLength": 4096
      },
      "bridgeUrl": {
       "type": "string",
       "maxLength": 4096
      },
      "address": {
       "type": "string",
       "maxLength": 4096
      },
      "preset": {
       "type": "string",
       "maxLength": 4096
      }
     },
     "additionalProperties": false
    },
    "events": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 9,
     "items": {
      "enum": [
       "new_bug",
       "regression",
       "status_change",
       "comment",
       "assigned",
       "recommended_bug",
       "agent_notify",
       "agent_update",
       "test"
      ]
     }
    },
    "deliveryFeed": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 32
    },
    "minSeverity": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 32
    },
    "bearerToken": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 4096
    }
   },
   "required": [
    "projectId",
    "type"
   ],
   "additionalProperties": true
  },
  "IntegrationPatchRequest": {
   "type": "object",
   "properties": {
    "name": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "config": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "url": {
       "type": "string",
       "maxLength": 4096
      },
      "secret": {
       "type": "string",
       "maxLength": 4096
      },
      "token": {
       "type": "string",
       "maxLength": 4096
      },
      "repo": {
       "type": "string",
       "maxLength": 4096
      },
      "bridgeUrl": {
       "type": "string",
       "maxLength": 4096
      },
      "address": {
       "type": "string",
       "maxLength": 4096
      },
      "preset": {
       "type": "string",
       "maxLength": 4096
      }
     },
     "additionalProperties": false
    },
    "events": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 9,
     "items": {
      "enum": [
       "new_bug",
       "regression",
       "status_change",
       "comment",
       "assigned",
       "recommended_bug",
       "agent_notify",
       "agent_update",
       "test"
      ]
     }
    },
    "deliveryFeed": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 32
    },
    "minSeverity": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 32
    },
    "bearerToken": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 4096
    },
    "is_active": {
     "type": [
      "boolean",
      "null"
     ]
    }
   },
   "additionalProperties": true
  },
  "AlertPolicyRequest": {
   "type": "object",
   "properties": {
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "severityFloor": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "critical",
      "high",
      "medium",
      "low",
      null
     ]
    },
    "excludes": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "events": {
       "type": [
        "array",
        "null"
       ],
       "maxItems": 50,
       "items": {
        "enum": [
         "new_bug",
         "regression",
         "status_change",
         "comment",
         "assigned",
         "recommended_bug"
        ]
       }
      },
      "titleContains": {
       "type": [
        "array",
        "null"
       ],
       "maxItems": 50,
       "items": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200
       }
      },
      "urlContains": {
       "type": [
        "array",
        "null"
       ],
       "maxItems": 50,
       "items": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200
       }
      },
      "environments": {
       "type": [
        "array",
        "null"
       ],
       "maxItems": 50,
       "items": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200
       }
      }
     },
     "additionalProperties": false
    },
    "quietHours": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "start": {
       "type": "string",
       "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"
      },
      "end": {
       "type": "string",
       "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"
      },
      "timeZone": {
       "type": "string",
       "description": "An IANA time zone such as Europe/Berlin, or UTC."
      }
     },
     "required": [
      "start",
      "end",
      "timeZone"
     ],
     "additionalProperties": false
    },
    "updatedAt": {
     "description": "Accepted and ignored (GET answers it)."
    }
   },
   "required": [
    "projectId"
   ],
   "additionalProperties": false
  },
  "AlertPreviewRequest": {
   "type": "object",
   "properties": {
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "eventType": {
     "enum": [
      "new_bug",
      "regression",
      "recommended_bug",
      "status_change"
     ]
    },
    "title": {
     "type": "string",
     "minLength": 1,
     "maxLength": 1000
    },
    "severity": {
     "enum": [
      "critical",
      "high",
      "medium",
      "low"
     ]
    },
    "url": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 4096
    },
    "userEmail": {
     "type": [
      "string",
      "null"
     ],
     "format": "email",
     "maxLength": 254
    }
   },
   "required": [
    "projectId",
    "eventType",
    "title",
    "severity"
   ],
   "additionalProperties": false
  },
  "ProjectCreateRequest": {
   "type": "object",
   "properties": {
    "name": {
     "type": "string",
     "minLength": 1,
     "maxLength": 100
    },
    "orgId": {
     "type": "string",
     "minLength": 1,
     "maxLength": 100
    },
    "platform": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "web",
      "ios",
      "android",
      "react-native",
      "flutter",
      "server",
      "other",
      null
     ]
    }
   },
   "required": [
    "name",
    "orgId"
   ],
   "additionalProperties": true
  },
  "CaptureKeyCreateRequest": {
   "type": "object",
   "properties": {
    "env": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "live",
      "test",
      null
     ]
    },
    "label": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    },
    "expiresAt": {
     "type": [
      "string",
      "null"
     ],
     "format": "date-time",
     "maxLength": 40
    }
   },
   "additionalProperties": true
  },
  "BugAckRequest": {
   "type": "object",
   "properties": {
    "action": {
     "const": "working"
    },
    "prUrl": {
     "type": [
      "string",
      "null"
     ],
     "description": "An absolute https URL of the pull request."
    },
    "note": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 500
    }
   },
   "required": [
    "action"
   ],
   "additionalProperties": false
  },
)catalogue",
    R"catalogue(  "AgentSettingsRequest": {
   "type": "object",
   "properties": {
    "autoNotify": {
     "type": "boolean"
    },
    "minSeverity": {
     "enum": [
      "critical",
      "high",
      "medium",
      "low"
     ]
    }
   },
   "additionalProperties": false,
   "anyOf": [
    {
     "required": [
      "autoNotify"
     ]
    },
    {
     "required": [
      "minSeverity"
     ]
    }
   ]
  },
  "ClaimCounter": {
   "type": "string",
   "pattern": "^[1-9][0-9]{0,17}$",
   "description": "A positive decimal string (as the claim answers give it)."
  },
  "ClaimRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "issueId": {
     "type": "string",
     "format": "uuid"
    },
    "ttlSeconds": {
     "type": "integer",
     "minimum": 60,
     "maximum": 900
    }
   },
   "required": [
    "commandId",
    "projectId",
    "issueId"
   ],
   "additionalProperties": false
  },
  "ClaimRenewRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "issueId": {
     "type": "string",
     "format": "uuid"
    },
    "claimId": {
     "type": "string",
     "format": "uuid"
    },
    "generation": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "fencingToken": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "ttlSeconds": {
     "type": "integer",
     "minimum": 60,
     "maximum": 900
    }
   },
   "required": [
    "commandId",
    "projectId",
    "issueId",
    "claimId",
    "generation",
    "fencingToken"
   ],
   "additionalProperties": false
  },
  "ClaimReleaseRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "issueId": {
     "type": "string",
     "format": "uuid"
    },
    "claimId": {
     "type": "string",
     "format": "uuid"
    },
    "generation": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "fencingToken": {
     "$ref": "#/components/schemas/ClaimCounter"
    }
   },
   "required": [
    "commandId",
    "projectId",
    "issueId",
    "claimId",
    "generation",
    "fencingToken"
   ],
   "additionalProperties": false
  },
  "ClaimCompleteRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "issueId": {
     "type": "string",
     "format": "uuid"
    },
    "claimId": {
     "type": "string",
     "format": "uuid"
    },
    "generation": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "fencingToken": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "receiptId": {
     "type": "string",
     "minLength": 1,
     "maxLength": 200
    }
   },
   "required": [
    "commandId",
    "projectId",
    "issueId",
    "claimId",
    "generation",
    "fencingToken",
    "receiptId"
   ],
   "additionalProperties": false
  },
  "ApplicationCreateRequest": {
   "type": "object",
   "properties": {
    "requestId": {
     "type": "string",
     "format": "uuid"
    },
    "name": {
     "type": "string",
     "pattern": "\\S",
     "maxLength": 200
    },
    "identifier": {
     "type": "string",
     "minLength": 1,
     "maxLength": 255,
     "pattern": "^[^\\x00-\\x20\\x7f]+$"
    }
   },
   "required": [
    "requestId",
    "name",
    "identifier"
   ],
   "additionalProperties": false
  },
  "InstallationCreateRequest": {
   "type": "object",
   "properties": {
    "requestId": {
     "type": "string",
     "format": "uuid"
    },
    "label": {
     "type": [
      "string",
      "null"
     ],
     "pattern": "\\S",
     "maxLength": 200
    }
   },
   "required": [
    "requestId"
   ],
   "additionalProperties": false
  },
  "BuildCreateRequest": {
   "type": "object",
   "properties": {
    "requestId": {
     "type": "string",
     "format": "uuid"
    },
    "sourceRevision": {
     "type": "string",
     "minLength": 1,
     "maxLength": 200,
     "pattern": "^[^\\x00-\\x20\\x7f]+$"
    },
    "artifactSha256": {
     "type": "string",
     "pattern": "^[0-9a-fA-F]{64}$"
    }
   },
   "required": [
    "requestId",
    "sourceRevision",
    "artifactSha256"
   ],
   "additionalProperties": false
  },
  "ArtifactReserveRequest": {
   "type": "object",
   "properties": {
    "kind": {
     "enum": [
      "log",
      "replay"
     ]
    },
    "contentType": {
     "type": "string",
     "description": "log: text/plain, replay: application/json"
    },
    "byteCount": {
     "type": "integer",
     "minimum": 1
    },
    "sha256": {
     "type": "string",
     "pattern": "^[0-9a-fA-F]{64}$"
    },
    "occurrenceId": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid"
    },
    "redaction": {
     "type": [
      "object",
      "null"
     ]
    }
   },
   "required": [
    "kind",
    "contentType",
    "byteCount",
    "sha256"
   ],
   "additionalProperties": false
  },
)catalogue",
    R"catalogue()catalogue",
    R"catalogue(  "VerificationRuntime": {
   "enum": [
    "web",
    "node",
    "ios",
    "macos",
    "android",
    "linux",
    "windows"
   ]
  },
  "VerificationLeaseRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "issueId": {
     "type": "string",
     "format": "uuid"
    },
    "claimId": {
     "type": "string",
     "format": "uuid"
    },
    "generation": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "fencingToken": {
     "$ref": "#/components/schemas/ClaimCounter"
    }
   },
   "required": [
    "commandId",
    "projectId",
    "issueId",
    "claimId",
    "generation",
    "fencingToken"
   ],
   "additionalProperties": false
  },
  "VerificationRunnerEnrollRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "name": {
     "type": "string",
     "minLength": 1,
     "maxLength": 100
    },
    "publicKeyPem": {
     "type": "string",
     "minLength": 1,
     "maxLength": 4096
    },
    "trustLevel": {
     "enum": [
      "ci",
      "device_lab"
     ]
    },
    "allowedRuntimes": {
     "type": "array",
     "minItems": 1,
     "maxItems": 7,
     "uniqueItems": true,
     "items": {
      "$ref": "#/components/schemas/VerificationRuntime"
     }
    }
   },
   "required": [
    "commandId",
    "projectId",
    "name",
    "publicKeyPem",
    "trustLevel",
    "allowedRuntimes"
   ],
   "additionalProperties": false
  },
  "VerificationDeviceEnrollRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "name": {
     "type": "string",
     "minLength": 1,
     "maxLength": 100
    },
    "runnerId": {
     "type": "string",
     "format": "uuid"
    },
    "applicationId": {
     "type": "string",
     "format": "uuid"
    },
    "installationId": {
     "type": "string",
     "format": "uuid"
    },
    "runtime": {
     "$ref": "#/components/schemas/VerificationRuntime"
    },
    "deviceIdentifierSha256": {
     "type": "string",
     "pattern": "^[0-9a-fA-F]{64}$"
    },
    "osVersion": {
     "type": "string",
     "minLength": 1,
     "maxLength": 100
    },
    "physicalDeviceConfirmed": {
     "type": "boolean",
     "description": "Must be true for runtime ios."
    }
   },
   "required": [
    "commandId",
    "projectId",
    "name",
    "runnerId",
    "applicationId",
    "installationId",
    "runtime",
    "deviceIdentifierSha256",
    "osVersion"
   ],
   "additionalProperties": false
  },
  "VerificationRunnerRevokeRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "runnerId": {
     "type": "string",
     "format": "uuid"
    }
   },
   "required": [
    "commandId",
    "projectId",
    "runnerId"
   ],
   "additionalProperties": false
  },
  "VerificationDeviceRevokeRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "deviceId": {
     "type": "string",
     "format": "uuid"
    }
   },
   "required": [
    "commandId",
    "projectId",
    "deviceId"
   ],
   "additionalProperties": false
  },
  "VerificationReceiptRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "issueId": {
     "type": "string",
     "format": "uuid"
    },
    "submission": {
     "type": "object",
     "properties": {
      "challengeId": {
       "type": "string",
       "format": "uuid"
      },
      "nonce": {
       "type": "string",
       "minLength": 1,
       "maxLength": 200
      },
      "projectId": {
       "type": "string",
       "format": "uuid"
      },
      "issueId": {
       "type": "string",
       "format": "uuid"
      },
      "applicationId": {
       "type": "string",
       "format": "uuid"
      },
      "buildId": {
       "type": "string",
       "format": "uuid"
      },
      "artifactSha256": {
       "type": "string",
       "pattern": "^[0-9a-fA-F]{64}$"
      },
      "runtime": {
       "$ref": "#/components/schemas/VerificationRuntime"
      },
      "deviceId": {
       "type": "string",
       "format": "uuid"
      },
      "tests": {
       "type": "array",
       "minItems": 1,
       "maxItems": 200,
       "items": {
        "type": "object",
        "properties": {
         "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
         },
         "outcome": {
          "enum": [
           "passed",
           "failed",
           "skipped"
          ]
         }
        },
        "required": [
         "name",
         "outcome"
        ],
        "additionalProperties": false
       }
      },
      "measuredAt": {
       "type": "string",
       "format": "date-time",
       "maxLength": 64
      },
      "evidenceIds": {
       "type": "array",
       "minItems": 1,
       "maxItems": 50,
       "uniqueItems": true,
       "items": {
        "type": "string",
        "format": "uuid"
       }
      }
     },
     "required": [
      "challengeId",
      "nonce",
      "projectId",
      "issueId",
      "applicationId",
      "buildId",
      "artifactSha256",
      "runtime",
      "tests",
      "measuredAt"
     ],
     "additionalProperties": false,
     "description": "Signed as its canonical JSON; projectId and issueId equal the command's."
    },
    "proof": {
     "type": "object",
     "properties": {
      "runnerId": {
       "type": "string",
       "format": "uuid"
      },
      "signature": {
       "type": "string",
       "minLength": 1,
       "maxLength": 200,
       "pattern": "^[A-Za-z0-9+/]+=*$",
       "description": "Base64 of a 64-byte Ed25519 signature."
      }
     },
     "required": [
      "runnerId",
      "signature"
     ],
     "additionalProperties": false
    }
   },
   "required": [
    "commandId",
    "projectId",
    "issueId",
    "submission"
   ],
   "additionalProperties": false
  },
  "VerificationPromoteRequest": {
   "type": "object",
   "properties": {
    "commandId": {
     "type": "string",
     "format": "uuid"
    },
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "issueId": {
     "type": "string",
     "format": "uuid"
    },
    "claimId": {
     "type": "string",
     "format": "uuid"
    },
    "generation": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "fencingToken": {
     "$ref": "#/components/schemas/ClaimCounter"
    },
    "targetBuilds": {
     "type": "array",
     "minItems": 1,
     "maxItems": 50,
     "uniqueItems": true,
     "items": {
      "type": "string",
      "format": "uuid"
     }
    },
    "receiptIds": {
     "type": "array",
     "minItems": 1,
     "maxItems": 50,
     "uniqueItems": true,
     "items": {
      "type": "string",
      "format": "uuid"
     }
    }
   },
   "required": [
    "commandId",
    "projectId",
    "issueId",
    "claimId",
    "generation",
    "fencingToken",
    "targetBuilds",
    "receiptIds"
   ],
   "additionalProperties": false
  },
  "DigestResolutionRequest": {
   "type": "object",
   "properties": {
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "requestId": {
     "type": "string",
     "format": "uuid"
    },
    "expectedGeneration": {
     "type": "integer",
     "minimum": 0,
     "maximum": 3
    },
    "action": {
     "enum": [
      "received",
      "retry"
     ]
    },
    "acceptDuplicateRisk": {
     "const": true
    }
   },
   "required": [
    "projectId",
    "requestId",
    "expectedGeneration",
    "action"
   ],
   "additionalProperties": false,
   "oneOf": [
    {
     "properties": {
      "action": {
       "const": "received"
      },
      "acceptDuplicateRisk": false
     },
     "required": [
      "action"
     ]
    },
    {
     "properties": {
      "action": {
       "const": "retry"
      }
     },
     "required": [
      "action",
      "acceptDuplicateRisk"
     ]
    }
   ]
  },
  "BudgetPatchRequest": {
   "type": "object",
   "properties": {
    "monthlyBudgetCents": {
     "type": [
      "integer",
      "null"
     ],
     "minimum": 0,
     "maximum": 10000000
    },
    "autoTopUp": {
     "type": "boolean"
    }
   },
   "additionalProperties": false,
   "minProperties": 1
  },
  "CheckoutRequest": {
   "type": "object",
   "properties": {
    "pack": {
     "const": "credits"
    }
   },
   "required": [
    "pack"
   ],
   "additionalProperties": false
  },
  "CardSetupRequest": {
   "type": "object",
   "properties": {
    "returnTo": {
     "enum": [
      "setup",
      "settings"
     ]
    }
   },
   "additionalProperties": false
  },
  "ScrubbingRequest": {
   "type": "object",
   "properties": {
    "extraKeys": {
     "type": "array",
     "items": {
      "type": "string"
     },
     "description": "Extra field names to scrub (normalized; limits checked by the use case)."
    },
    "scrubMessages": {
     "type": "boolean"
    },
    "storeIpAddress": {
     "type": "boolean"
    }
   },
   "additionalProperties": false,
   "minProperties": 1
  },
  "SupportSessionRequest": {
   "type": "object",
   "properties": {
    "orgId": {
     "type": "string",
     "format": "uuid"
    }
   },
   "required": [
    "orgId"
   ],
   "additionalProperties": true
  },
  "TestEventRequest": {
   "type": "object",
   "properties": {
    "platform": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "web",
      "ios",
      "android",
      "react-native",
      "flutter",
      "server",
      null
     ]
    }
   },
   "additionalProperties": true
  },
  "AdminCustomerCreateRequest": {
   "type": "object",
   "properties": {
    "orgName": {
     "type": "string",
     "minLength": 1,
     "maxLength": 100,
     "pattern": "\\S"
    },
    "contactEmail": {
     "$ref": "#/components/schemas/EmailAddress"
    },
    "contactName": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    },
    "plan": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "free",
      "pro",
      "team",
      "enterprise",
      null
     ]
    },
    "lifecycleStage": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "trial",
      "active",
      "paused",
      "churned",
      "internal",
      null
     ]
    },
    "billingStatus": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "unassigned",
      "manual",
      "paid",
      "past_due",
      null
     ]
    },
    "useCase": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    }
   },
   "required": [
    "orgName",
    "contactEmail"
   ],
   "additionalProperties": true
  },
  "AdminCustomerUpdateRequest": {
   "type": "object",
   "properties": {
    "plan": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "free",
      "pro",
      "team",
      "enterprise",
      null
     ]
    },
    "lifecycleStage": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "trial",
      "active",
      "paused",
      "churned",
      "internal",
      null
     ]
    },
    "billingStatus": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "unassigned",
      "manual",
      "paid",
      "past_due",
      null
     ]
    },
    "adminNotes": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 10000
    }
   },
   "additionalProperties": true,
   "description": "At least one field must change (else 400 Nothing to update)."
  },
  "AdminTeamMemberRequest": {
   "type": "object",
   "properties": {
    "email": {
     "$ref": "#/components/schemas/EmailAddress"
    },
    "role": {
     "enum": [
      "admin",
      "manager",
      "member",
      "tester",
      "viewer"
     ]
    },
    "name": {
     "maxLength": 100,
     "description": "A display name (a value that is not a string is ignored)."
    }
   },
   "required": [
    "email",
    "role"
   ],
   "additionalProperties": true
  },
  "AdminBackfillRequest": {
   "type": "object",
   "properties": {
    "projectId": {
     "type": [
      "string",
      "null"
     ],
     "format": "uuid"
    },
    "cursor": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    },
    "limit": {
     "type": [
      "integer",
      "null"
     ],
     "minimum": 1,
     "maximum": 5000
    }
   },
   "additionalProperties": true
  },
  "AdminDeleteOrgRequest": {
   "type": "object",
   "properties": {
    "orgId": {
     "type": "string",
     "maxLength": 100
    },
    "confirmOrgId": {
     "type": "string",
     "maxLength": 100,
     "description": "Must equal orgId."
    }
   },
   "required": [
    "orgId",
    "confirmOrgId"
   ],
   "additionalProperties": true
  },
  "ManualBugRequest": {
   "type": "object",
   "properties": {
    "projectId": {
     "type": "string",
     "format": "uuid"
    },
    "title": {
     "type": "string",
     "minLength": 3,
     "maxLength": 500
    },
    "description": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 10000
    },
    "severity": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "critical",
      "high",
      "medium",
      "low",
      null
     ]
    },
    "url": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    },
    "environment": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    }
   },
   "required": [
    "projectId",
    "title"
   ],
   "additionalProperties": true
  },
)catalogue",
    R"catalogue(  "AiSummaryRequest": {
   "type": "object",
   "properties": {
    "events": {
     "type": "array",
     "minItems": 1,
     "items": {
      "type": "object"
     }
    },
    "title": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 500
    },
    "url": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    },
    "context": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "environment": {
       "type": [
        "string",
        "null"
       ],
       "maxLength": 100
      },
      "release": {
       "type": [
        "string",
        "null"
       ],
       "maxLength": 100
      },
      "userAgent": {
       "type": [
        "string",
        "null"
       ],
       "maxLength": 500
      },
      "userId": {
       "type": [
        "string",
        "null"
       ],
       "maxLength": 200
      }
     }
    }
   },
   "required": [
    "events"
   ],
   "additionalProperties": true
  },
  "PresenceRequest": {
   "type": "object",
   "properties": {
    "sessionId": {
     "type": "string",
     "minLength": 1,
     "maxLength": 200
    },
    "userId": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "reporterId": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "url": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    },
    "path": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 1000
    },
    "title": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 500
    },
    "referrer": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    },
    "eventType": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    },
    "visibilityState": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 50
    },
    "interaction": {
     "type": [
      "object",
      "null"
     ]
    },
    "metadata": {
     "type": [
      "object",
      "null"
     ]
    }
   },
   "required": [
    "sessionId"
   ],
   "additionalProperties": true
  },
  "ArtifactBundleAssembleRequest": {
   "type": "object",
   "properties": {
    "checksum": {
     "type": "string",
     "pattern": "^[0-9a-fA-F]{40}$"
    },
    "chunks": {
     "type": "array",
     "maxItems": 64,
     "items": {
      "type": "string",
      "pattern": "^[0-9a-fA-F]{40}$"
     }
    },
    "projects": {
     "type": "array",
     "minItems": 1,
     "maxItems": 20,
     "items": {
      "type": "string",
      "minLength": 1,
      "maxLength": 200
     }
    },
    "version": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 250
    },
    "dist": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 64
    }
   },
   "required": [
    "checksum",
    "chunks",
    "projects"
   ],
   "additionalProperties": true
  },
  "IngestRequest": {
   "type": "object",
   "properties": {
    "title": {
     "type": "string",
     "minLength": 1,
     "maxLength": 500,
     "pattern": "\\S"
    },
    "description": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 10000
    },
    "severity": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "critical",
      "high",
      "medium",
      "low",
      null
     ]
    },
    "url": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 2000
    },
    "userAgent": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 500
    },
    "viewport": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 50,
     "description": "Width by height, such as 1280x720."
    },
    "reporterEmail": {
     "type": [
      "string",
      "null"
     ],
     "description": "An email address; an empty string is ignored."
    },
    "reporterId": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "sessionId": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "userId": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "release": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 200
    },
    "environment": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 100
    },
    "platform": {
     "type": [
      "string",
      "null"
     ],
     "enum": [
      "web",
      "ios",
      "android",
      "react-native",
      "flutter",
      "server",
      "other",
      null
     ]
    },
    "device": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 120
    },
    "osVersion": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 60
    },
    "metadata": {
     "type": [
      "object",
      "null"
     ]
    },
    "encrypted": {
     "type": [
      "object",
      "null"
     ],
     "description": "Not supported; type-checked only."
    },
    "aiSummary": {
     "description": "An object is kept as the bug's client summary, a string as {summary}; other values are ignored."
    },
    "events": {
     "type": [
      "array",
      "null"
     ],
     "maxItems": 1000,
     "items": {
      "type": "object",
      "properties": {
       "type": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200
       },
       "timestamp": {
        "type": [
         "number",
         "null"
        ],
        "minimum": 0,
        "maximum": 253402300799999,
        "description": "Unix milliseconds; absent: the time of receipt."
       },
       "data": {
        "description": "Any JSON value."
       }
      },
      "required": [
       "type"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "title"
   ],
   "additionalProperties": true
  },
)catalogue",
    R"catalogue()catalogue",
    R"catalogue(  "WaitlistNoteRequest": {
   "type": "object",
   "properties": {
    "note": {
     "type": [
      "string",
      "null"
     ],
     "maxLength": 1000
    }
   },
   "additionalProperties": true
  },
)catalogue",
    R"catalogue(  "LoginRequest": {
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
      "tester",
      "viewer",
      null
     ]
    },
    "orgId": {
     "type": "string",
     "format": "uuid"
    },
    "resend": {
     "type": [
      "boolean",
      "null"
     ]
    }
   },
   "required": [
    "email",
    "orgId"
   ],
   "additionalProperties": true
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
)catalogue",
    R"catalogue(  },
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
   "properties": {
    "limit": {
     "type": "integer"
    },
    "occurrences": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "browser": {
        "type": [
         "string",
         "null"
        ]
       },
       "bug_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "end_user_id": {
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
       "event_count": {
        "type": "integer"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "ip_hash": {
        "type": "string"
       },
       "metadata": {
        "type": "object",
        "additionalProperties": true,
        "description": "Free-form: what the client sent."
       },
       "occurred_at": {
        "$ref": "#/components/schemas/DateTime"
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
       "project_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "release_version": {
        "type": [
         "string",
         "null"
        ]
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
       "session_id": {
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
       "user_key": {
        "type": "string"
       },
       "viewport": {
        "type": [
         "string",
         "null"
        ]
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
     }
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "limit",
    "occurrences",
    "offset",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/occurrences (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
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
)catalogue",
    R"catalogue(   "additionalProperties": false
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
  },
  "JsonRpcError": {
   "type": "object",
   "properties": {
    "jsonrpc": {
     "const": "2.0"
    },
    "id": {
     "type": [
      "string",
      "integer",
      "null"
     ],
     "description": "The request's id; null when it could not be read."
    },
    "error": {
     "type": "object",
     "properties": {
      "code": {
       "type": "integer",
       "description": "-32700 parse error, -32600 invalid request, ..."
      },
      "message": {
       "type": "string"
      },
      "data": {}
     },
     "required": [
      "code",
      "message"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "jsonrpc",
    "id",
    "error"
   ],
   "additionalProperties": false,
   "description": "A JSON-RPC 2.0 error answer (POST /v1/mcp refuses a malformed message or an Accept without application/json this way)."
  },
  "DateTime": {
   "type": "string",
   "format": "date-time",
   "description": "An instant in ISO 8601 UTC (2026-01-15T10:00:00.000Z)."
  },
  "Uuid": {
   "type": "string",
   "format": "uuid",
   "description": "A stored row's identifier."
  },
  "BugsOneDeletedAnswer": {
   "type": "object",
   "properties": {
    "deleted": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "deleted",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of DELETE /v1/bugs/:id (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsWatchDeletedAnswer": {
   "type": "object",
   "properties": {
    "watching": {
     "type": "boolean"
    }
   },
   "required": [
    "watching"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of DELETE /v1/bugs/:id/watch (fields from the handler in libservice/src/areas/triage/api/triage_routes.cpp)."
  },
  "TicketsOneDeletedAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of DELETE /v1/tickets/:id (fields from the handler in libservice/src/areas/tickets/api/tickets_routes.cpp)."
  },
  "AuthApprovalOneAnswer": {
   "type": "object",
   "properties": {
    "email": {
     "type": "string"
    },
    "name": {
     "type": "string"
    },
    "orgName": {
     "type": "string"
    }
   },
   "required": [
    "email",
    "name",
    "orgName"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/auth/approval/:token (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthMeAnswer": {
   "type": "object",
   "properties": {
    "avatar_url": {
     "type": [
      "string",
      "null"
     ]
    },
    "email": {
     "type": "string"
    },
    "email_verified": {
     "type": "boolean"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "isSuperAdmin": {
     "type": "boolean"
    },
    "name": {
     "type": "string"
    },
    "orgs": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "orgId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "orgName": {
        "type": "string"
       },
       "orgSlug": {
        "type": "string"
       },
       "role": {
        "type": "string"
       }
      },
      "required": [
       "orgId",
       "orgName",
       "orgSlug"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "avatar_url",
    "email",
    "email_verified",
    "id",
    "name"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/auth/me (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthWhatsNewAnswer": {
   "type": "object",
   "properties": {
    "counts": {
     "type": "object",
     "properties": {
      "newBugs": {
       "type": "integer"
      },
      "regressions": {
       "type": "integer"
      },
      "resolved": {
       "type": "integer"
      }
     },
     "required": [
      "newBugs",
      "regressions",
      "resolved"
     ],
     "additionalProperties": true
    },
    "firstLogin": {
     "type": "boolean"
    },
    "items": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "severity": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "ts": {
        "$ref": "#/components/schemas/DateTime"
       },
       "type": {
        "type": "string"
       }
      },
      "required": [
       "id",
       "severity",
       "title",
       "ts",
       "type"
      ],
      "additionalProperties": true
     }
    },
    "since": {
     "$ref": "#/components/schemas/DateTime"
    }
   },
   "required": [
    "items"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/auth/whats-new (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "TeamNotificationsAnswer": {
   "type": "object",
   "properties": {
    "chatEnabled": {
     "type": "boolean"
    },
    "chatWebhook": {
     "description": "null in every answer seen; the value's type when set is not listed."
    },
    "digestFreq": {
     "type": "string"
    },
    "emailLevel": {
     "type": "string"
    },
    "inAppEnabled": {
     "type": "boolean"
    },
    "userId": {
     "$ref": "#/components/schemas/Uuid"
    }
   },
   "required": [
    "chatEnabled",
    "chatWebhook",
    "digestFreq",
    "emailLevel",
    "inAppEnabled",
    "userId"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/team/:userId/notifications (fields from the handler in libservice/src/areas/triage/api/triage_notification_routes.cpp)."
  },
  "TeamActivityAnswer": {
   "type": "object",
   "properties": {
    "activity": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "actor": {
        "type": [
         "string",
         "null"
        ]
       },
       "actorId": {
        "type": [
         "string",
         "null"
        ]
       },
       "bug_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "bug_title": {
        "type": "string"
       },
       "summary": {
        "type": "string"
       },
       "ts": {
        "$ref": "#/components/schemas/DateTime"
       },
       "type": {
        "type": "string"
       }
      },
      "required": [
       "actor",
       "actorId",
       "bug_id",
       "bug_title",
       "summary",
       "ts",
       "type"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "activity"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/team/activity (fields from the handler in libservice/src/areas/triage/api/triage_notification_routes.cpp)."
  },
  "TicketsAnswer": {
   "type": "object",
   "properties": {
    "tickets": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Ticket"
     }
    }
   },
   "required": [
    "tickets"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/tickets (fields from the handler in libservice/src/areas/tickets/api/tickets_routes.cpp)."
  },
  "TicketsOneAnswer": {
   "type": "object",
   "properties": {
    "ticket": {
     "$ref": "#/components/schemas/Ticket"
    }
   },
   "required": [
    "ticket"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/tickets/:id (fields from the handler in libservice/src/areas/tickets/api/tickets_routes.cpp)."
  },
  "BugsOneUpdatedAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PATCH /v1/bugs/:id (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsBulkUpdatedAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    },
    "updated": {
     "type": "integer"
    }
   },
   "required": [
    "success",
    "updated"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PATCH /v1/bugs/bulk (fields from the handler in libservice/src/areas/triage/api/triage_routes.cpp)."
  },
  "TeamOneUpdatedAnswer": {
   "type": "object",
   "properties": {
    "membership": {
     "type": "object",
     "properties": {
      "org_id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "role": {
       "type": "string"
      },
      "user_id": {
       "$ref": "#/components/schemas/Uuid"
      }
     },
     "required": [
      "org_id",
      "role",
      "user_id"
     ],
     "additionalProperties": true
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "membership",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PATCH /v1/team/:userId (fields from the handler in libservice/src/areas/accounts/api/accounts_team_routes.cpp)."
  },
  "TeamNotificationsUpdatedAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PATCH /v1/team/:userId/notifications (fields from the handler in libservice/src/areas/triage/api/triage_notification_routes.cpp)."
  },
  "TicketsOneUpdatedAnswer": {
   "type": "object",
   "properties": {
    "ticket": {
     "$ref": "#/components/schemas/Ticket"
    }
   },
   "required": [
    "ticket"
)catalogue",
    R"catalogue(   ],
   "additionalProperties": true,
   "description": "The 200 answer of PATCH /v1/tickets/:id (fields from the handler in libservice/src/areas/tickets/api/tickets_routes.cpp)."
  },
  "AuthCompleteSignupResultAnswer": {
   "type": "object",
   "properties": {
    "accessToken": {
     "type": "string"
    },
    "apiKey": {
     "type": "string"
    },
    "dsn": {
     "type": "string"
    },
    "org": {
     "$ref": "#/components/schemas/Org"
    },
    "project": {
     "$ref": "#/components/schemas/ProjectSummary"
    },
    "refreshToken": {
     "type": "string"
    },
    "user": {
     "$ref": "#/components/schemas/User"
    }
   },
   "required": [
    "accessToken",
    "refreshToken"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/auth/complete-signup (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthDataDeleteConfirmResultAnswer": {
   "type": "object",
   "properties": {
    "deleted": {
     "type": "string"
    },
    "deletedOrganizations": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "message": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "deleted",
    "deletedOrganizations",
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/auth/data-delete/confirm (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthDataDeleteRequestResultAnswer": {
   "type": "object",
   "properties": {
    "expiresAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "message": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/auth/data-delete/request (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthDataExportResultAnswer": {
   "type": "object",
   "properties": {
    "expiresAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "message": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/auth/data-export (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthForgotPasswordResultAnswer": {
   "type": "object",
   "properties": {
    "message": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    },
    "token": {
     "type": "string"
    }
   },
   "required": [
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/auth/forgot-password (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthInvitationsAcceptResultAnswer": {
   "type": "object",
   "properties": {
    "message": {
     "type": "string"
    },
    "orgId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "orgName": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "message",
    "orgId",
    "orgName",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/auth/invitations/accept (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthInvitationsInspectResultAnswer": {
   "type": "object",
   "properties": {
    "email": {
     "type": "string"
    },
    "expiresAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "orgName": {
     "type": "string"
    }
   },
   "required": [
    "email",
    "orgName"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/auth/invitations/inspect (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthRegisterResultAnswer": {
   "type": "object",
   "properties": {
    "accessToken": {
     "type": "string"
    },
    "apiKey": {
     "type": "string"
    },
    "dsn": {
     "type": "string"
    },
    "org": {
     "$ref": "#/components/schemas/Org"
    },
    "project": {
     "$ref": "#/components/schemas/ProjectSummary"
    },
    "refreshToken": {
     "type": "string"
    },
    "user": {
     "$ref": "#/components/schemas/User"
    }
   },
   "required": [
    "accessToken",
    "refreshToken"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/auth/register (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthResendVerificationResultAnswer": {
   "type": "object",
   "properties": {
    "maskedEmail": {
     "type": "string"
    },
    "message": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/auth/resend-verification (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthResetPasswordResultAnswer": {
   "type": "object",
   "properties": {
    "message": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/auth/reset-password (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthSendVerificationResultAnswer": {
   "type": "object",
   "properties": {
    "maskedEmail": {
     "type": "string"
    },
    "message": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/auth/send-verification (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthSwitchOrgResultAnswer": {
   "type": "object",
   "properties": {
    "accessToken": {
     "type": "string"
    },
    "org": {
     "type": "object",
     "properties": {
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "name": {
       "type": "string"
      },
      "slug": {
       "type": "string"
      }
     },
     "required": [
      "id",
      "name",
      "slug"
     ],
     "additionalProperties": true
    },
    "refreshToken": {
     "type": "string"
    },
    "role": {
     "type": "string"
    }
   },
   "required": [
    "accessToken",
    "refreshToken"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/auth/switch-org (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthVerifyEmailResultAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/auth/verify-email (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "AuthWaitlistResultAnswer": {
   "type": "object",
   "properties": {
    "message": {
     "type": "string"
    },
    "status": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "message",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/auth/waitlist (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "BugsCommentsResultAnswer": {
   "type": "object",
   "properties": {
    "bug_id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "content": {
     "type": "string"
    },
    "created_at": {
     "$ref": "#/components/schemas/DateTime"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "user_email": {
     "type": "string"
    },
    "user_id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "user_name": {
     "type": "string"
    }
   },
   "required": [
    "bug_id",
    "content",
    "created_at",
    "id",
    "user_email",
    "user_id",
    "user_name"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/bugs/:id/comments (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsWatchResultAnswer": {
   "type": "object",
   "properties": {
    "watching": {
     "type": "boolean"
    }
   },
   "required": [
    "watching"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/bugs/:id/watch (fields from the handler in libservice/src/areas/triage/api/triage_routes.cpp)."
  },
  "BugsMergeResultAnswer": {
   "type": "object",
   "properties": {
    "mergedCount": {
     "type": "integer"
    },
    "success": {
     "type": "boolean"
    },
    "targetId": {
     "$ref": "#/components/schemas/Uuid"
    }
   },
   "required": [
    "mergedCount",
    "success",
    "targetId"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/bugs/merge (fields from the handler in libservice/src/areas/triage/api/triage_routes.cpp)."
  },
  "TicketsResultAnswer": {
   "type": "object",
   "properties": {
    "ticket": {
     "$ref": "#/components/schemas/Ticket"
    }
   },
   "required": [
    "ticket"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/tickets (fields from the handler in libservice/src/areas/tickets/api/tickets_routes.cpp)."
  },
  "TicketsMoveResultAnswer": {
   "type": "object",
   "properties": {
    "ticket": {
     "$ref": "#/components/schemas/Ticket"
    }
   },
   "required": [
    "ticket"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/tickets/:id/move (fields from the handler in libservice/src/areas/tickets/api/tickets_routes.cpp)."
  },
  "Ticket": {
   "additionalProperties": true,
   "properties": {
    "assigneeId": {
     "type": [
      "string",
      "null"
     ]
    },
    "bugId": {
     "type": [
      "string",
      "null"
     ]
    },
    "createdAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "description": {
     "type": "string"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "position": {
     "type": "integer"
    },
    "status": {
     "type": "string"
    },
    "title": {
     "type": "string"
    },
    "updatedAt": {
     "$ref": "#/components/schemas/DateTime"
    }
   },
   "required": [
    "assigneeId",
    "bugId",
    "createdAt",
    "description",
    "id",
    "position",
    "status",
    "title",
    "updatedAt"
   ],
   "type": "object"
  },
  "Org": {
   "additionalProperties": true,
   "properties": {
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "name": {
     "type": "string"
    },
    "plan": {
     "type": "string"
    },
    "slug": {
     "type": "string"
    }
   },
   "required": [
    "id",
    "name",
    "plan",
    "slug"
   ],
   "type": "object"
  },
  "ProjectSummary": {
   "additionalProperties": true,
   "properties": {
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "name": {
     "type": "string"
    },
    "platform": {
     "type": "string"
    },
    "project_number": {
     "type": "integer"
    },
    "slug": {
     "type": "string"
    }
   },
   "required": [
    "id",
    "name",
    "platform",
    "project_number",
    "slug"
   ],
   "type": "object"
  },
  "User": {
   "additionalProperties": true,
   "properties": {
    "avatar_url": {
     "type": [
      "string",
      "null"
     ]
    },
    "email": {
     "type": "string"
    },
    "email_verified": {
     "type": "boolean"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "name": {
     "type": "string"
    }
   },
   "required": [
    "avatar_url",
    "email",
    "email_verified",
    "id",
    "name"
   ],
   "type": "object"
  },
  "NullableDateTime": {
   "type": [
    "string",
    "null"
   ],
   "format": "date-time",
   "description": "An instant in ISO 8601 UTC, or null when it has not happened."
  },
  "Cursor": {
   "type": [
    "string",
    "null"
   ],
   "description": "The opaque cursor of the next page (pass it back as ?cursor=); null on the last page."
  },
  "AlertsDigestsAnswer": {
   "type": "object",
   "properties": {
    "batches": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "allowedActions": {
        "type": "object",
        "properties": {
         "reason": {
          "type": [
           "string",
           "null"
          ]
         },
         "received": {
          "type": "boolean"
         },
         "retry": {
          "type": "boolean"
         }
        },
        "required": [
         "reason",
         "received",
         "retry"
        ],
        "additionalProperties": true
       },
       "attempts": {
        "type": "integer"
       },
       "batchProjectCount": {
        "type": "integer"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "eventCount": {
        "type": "integer"
       },
       "generation": {
        "type": "integer"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "manualRetries": {
        "type": "integer"
       },
       "resolution": {
        "type": [
         "object",
         "null"
        ],
        "properties": {
         "action": {
          "type": "string"
         },
         "confirmedByRecipient": {
          "type": "boolean"
         },
         "createdAt": {
          "$ref": "#/components/schemas/DateTime"
         },
         "generation": {
          "type": "integer"
         }
        },
        "required": [
         "action",
         "confirmedByRecipient",
         "createdAt",
         "generation"
        ],
        "additionalProperties": true
       },
       "sentAt": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "state": {
        "type": "string"
       },
       "subject": {
        "type": "string"
       }
      },
      "required": [
       "allowedActions",
       "attempts",
       "batchProjectCount",
       "createdAt",
       "eventCount",
       "generation",
       "id",
       "manualRetries",
       "resolution",
       "sentAt",
       "state",
       "subject"
      ],
      "additionalProperties": true
     }
    },
    "nextCursor": {
     "$ref": "#/components/schemas/Cursor"
    },
    "pendingEvents": {
     "type": "integer"
    }
   },
   "required": [
    "batches",
    "nextCursor",
    "pendingEvents"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/alerts/digests (fields from the handler in libservice/src/areas/triage/api/triage_digest_routes.cpp)."
  },
)catalogue",
    R"catalogue(  "AlertsOverviewAnswer": {
   "type": "object",
   "properties": {
    "deliveries": {
     "type": "object",
     "properties": {
      "canceled": {
       "type": "integer"
      },
      "failed": {
       "type": "integer"
      },
      "pending": {
       "type": "integer"
      },
      "success": {
       "type": "integer"
      }
     },
     "required": [
      "canceled",
      "failed",
      "pending",
      "success"
     ],
     "additionalProperties": true
    },
    "projects": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "activeIntegrations": {
        "type": "integer"
       },
       "integrations": {
        "type": "integer"
       },
       "name": {
        "type": "string"
       },
       "projectId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "quietHours": {
        "type": [
         "object",
         "null"
        ],
        "properties": {
         "end": {
          "type": "string"
         },
         "start": {
          "type": "string"
         },
         "timeZone": {
          "type": "string"
         }
        },
        "required": [
         "end",
         "start",
         "timeZone"
        ],
        "additionalProperties": true
       },
       "quietNow": {
        "type": "boolean"
       },
       "quietUntil": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "severityFloor": {
        "description": "null in every answer seen; the value's type when set is not listed."
       }
      },
      "required": [
       "activeIntegrations",
       "integrations",
       "name",
       "projectId",
       "quietHours",
       "quietNow",
       "quietUntil",
       "severityFloor"
      ],
      "additionalProperties": true
     }
    },
    "windowHours": {
     "type": "integer"
    }
   },
   "required": [
    "deliveries",
    "projects",
    "windowHours"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/alerts/overview (fields from the handler in libservice/src/areas/integrations/api/integrations_routes.cpp)."
  },
  "AlertsPolicyAnswer": {
   "type": "object",
   "properties": {
    "policy": {
     "type": "object",
     "properties": {
      "excludes": {
       "$ref": "#/components/schemas/AlertExcludes"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "quietHours": {
       "type": [
        "object",
        "null"
       ],
       "properties": {
        "end": {
         "type": "string"
        },
        "start": {
         "type": "string"
        },
        "timeZone": {
         "type": "string"
        }
       },
       "required": [
        "end",
        "start",
        "timeZone"
       ],
       "additionalProperties": true
      },
      "severityFloor": {
       "type": [
        "string",
        "null"
       ]
      },
      "updatedAt": {
       "$ref": "#/components/schemas/NullableDateTime"
      }
     },
     "required": [
      "excludes",
      "projectId",
      "quietHours",
      "severityFloor",
      "updatedAt"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "policy"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/alerts/policy (fields from the handler in libservice/src/areas/integrations/api/integrations_routes.cpp)."
  },
  "AuthAgentContextAnswer": {
   "type": "object",
   "properties": {
    "orgId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "orgName": {
     "type": "string"
    },
    "role": {
     "type": "string"
    },
    "scopes": {
     "type": "array",
     "items": {
      "type": "string"
     }
    }
   },
   "required": [
    "orgId",
    "orgName",
    "scopes"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/auth/agent-context (fields from the handler in libservice/src/areas/accounts/api/accounts_routes.cpp)."
  },
  "BillingBudgetAnswer": {
   "type": "object",
   "properties": {
    "autoTopUp": {
     "type": "boolean"
    },
    "month": {
     "type": "string"
    },
    "monthToDateSpendCents": {
     "type": "integer"
    },
    "monthlyBudgetCents": {
     "type": "integer"
    },
    "paymentMethodOnFile": {
     "type": "boolean"
    }
   },
   "required": [
    "autoTopUp",
    "month",
    "monthToDateSpendCents",
    "monthlyBudgetCents",
    "paymentMethodOnFile"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/billing/budget (fields from the handler in libservice/src/areas/operations/api/billing_routes.cpp)."
  },
  "BillingSubscriptionAnswer": {
   "type": "object",
   "properties": {
    "billingConfigured": {
     "type": "boolean"
    },
    "budget": {
     "type": "object",
     "properties": {
      "autoTopUp": {
       "type": "boolean"
      },
      "month": {
       "type": "string"
      },
      "monthToDateSpendCents": {
       "type": "integer"
      },
      "monthlyBudgetCents": {
       "type": "integer"
      },
      "paymentMethodOnFile": {
       "type": "boolean"
      }
     },
     "required": [
      "autoTopUp",
      "month",
      "monthToDateSpendCents",
      "monthlyBudgetCents",
      "paymentMethodOnFile"
     ],
     "additionalProperties": true
    },
    "credits": {
     "type": "object",
     "properties": {
      "balance": {
       "type": "integer"
      },
      "included": {
       "type": "integer"
      },
      "includedMonthly": {
       "type": "integer"
      },
      "prepaid": {
       "type": "integer"
      }
     },
     "required": [
      "balance",
      "included",
      "includedMonthly",
      "prepaid"
     ],
     "additionalProperties": true
    },
    "hasCustomer": {
     "type": "boolean"
    },
    "ledger": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bucket": {
        "type": "string"
       },
       "cents": {
        "type": "integer"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "credits": {
        "type": "integer"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "kind": {
        "type": "string"
       }
      },
      "required": [
       "bucket",
       "cents",
       "createdAt",
       "credits",
       "id",
       "kind"
      ],
      "additionalProperties": true
     }
    },
    "pack": {
     "type": "object",
     "properties": {
      "chargeCents": {
       "type": "integer"
      },
      "credits": {
       "type": "integer"
      },
      "pack": {
       "type": "string"
      }
     },
     "required": [
      "chargeCents",
      "credits",
      "pack"
     ],
     "additionalProperties": true
    },
    "paymentMethodOnFile": {
     "type": "boolean"
    },
    "plan": {
     "type": "string"
    }
   },
   "required": [
    "billingConfigured",
    "budget",
    "credits",
    "hasCustomer",
    "ledger",
    "pack",
    "paymentMethodOnFile",
    "plan"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/billing/subscription (fields from the handler in libservice/src/areas/operations/api/billing_routes.cpp)."
  },
  "BugsAgentStatusAnswer": {
   "type": "object",
   "properties": {
    "bugId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "canConnect": {
     "type": "boolean"
    },
    "history": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/AgentStatusHistoryEntry"
     }
    },
    "notified": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "channels": {
       "type": "array",
       "items": {
        "$ref": "#/components/schemas/AgentNotificationChannel"
       }
      },
      "trigger": {
       "type": "string"
      }
     },
     "required": [
      "at"
     ],
     "additionalProperties": true
    },
    "pickedUp": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "by": {
       "type": "string"
      },
      "note": {
       "type": [
        "string",
        "null"
       ]
      }
     },
     "required": [
      "at",
      "by"
     ],
     "additionalProperties": true
    },
    "prOpened": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "url": {
       "type": "string"
      }
     },
     "required": [
      "at",
      "url"
     ],
     "additionalProperties": true
    },
    "state": {
     "type": "string"
    }
   },
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/agent-status (fields from the handler in libservice/src/areas/handoff/api/handoff_routes.cpp)."
  },
  "BugsAnomaliesAnswer": {
   "type": "object",
   "properties": {
    "anomalies": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "description": {
        "type": "string"
       },
       "evidence": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "severity": {
        "type": "string"
       },
       "timeRange": {
        "type": "object",
        "properties": {
         "end": {
          "$ref": "#/components/schemas/DateTime"
         },
         "start": {
          "$ref": "#/components/schemas/DateTime"
         }
        },
        "required": [
         "end",
         "start"
        ],
        "additionalProperties": true
       },
       "type": {
        "type": "string"
       }
      },
      "required": [
       "description",
       "evidence",
       "timeRange",
       "type"
      ],
      "additionalProperties": true
     }
    },
    "eventCount": {
     "type": "integer"
    }
   },
   "required": [
    "anomalies",
    "eventCount"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/anomalies (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "BugsCommentsAnswer": {
   "type": "object",
   "properties": {
    "comments": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bug_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "content": {
        "type": "string"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "user_email": {
        "type": "string"
       },
       "user_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "user_name": {
        "type": "string"
       }
      },
      "required": [
       "bug_id",
       "content",
       "created_at",
       "id",
       "user_email",
       "user_id",
       "user_name"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "comments"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/comments (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsHistoryAnswer": {
   "type": "object",
   "properties": {
    "history": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "changed_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "changed_by_email": {
        "type": [
         "string",
         "null"
        ]
       },
       "changed_by_name": {
        "type": [
         "string",
         "null"
        ]
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "new_status": {
        "type": "string"
       },
       "note": {
        "type": [
         "string",
         "null"
        ]
       },
       "old_status": {
        "type": "string"
       }
      },
      "required": [
       "changed_at",
       "changed_by_email",
       "changed_by_name",
       "id",
       "new_status",
       "note",
       "old_status"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "history"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/history (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsSimilarAnswer": {
   "type": "object",
   "properties": {
    "similar": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "fingerprint": {
        "type": "string"
       },
       "first_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "last_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "report_count": {
        "type": "integer"
       },
       "severity": {
        "type": "string"
       },
       "similarity_score": {
        "type": "integer"
       },
       "status": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "url": {
        "type": "string"
       }
      },
      "required": [
       "fingerprint",
       "id",
       "similarity_score",
       "url"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "similar"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/similar (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "BugsUsersAnswer": {
   "type": "object",
   "properties": {
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    },
    "users": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "email": {
        "type": [
         "string",
         "null"
        ]
       },
       "endUserId": {
        "type": [
         "string",
         "null"
        ]
       },
       "firstSeen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "kind": {
        "type": "string"
       },
       "lastEnvironment": {
        "type": [
         "string",
         "null"
        ]
       },
       "lastOccurrenceId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "lastRelease": {
        "type": [
         "string",
         "null"
        ]
       },
       "lastSeen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "occurrenceCount": {
        "type": "integer"
       },
       "platforms": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "userKey": {
        "type": "string"
       }
      },
      "required": [
       "email",
       "endUserId",
       "firstSeen",
       "kind",
       "lastEnvironment",
       "lastOccurrenceId",
)catalogue",
    R"catalogue(       "lastRelease",
       "lastSeen",
       "occurrenceCount",
       "userKey"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "limit",
    "offset",
    "total",
    "users"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/users (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "BugsGroupsAnswer": {
   "type": "object",
   "properties": {
    "direction": {
     "type": "string"
    },
    "groups": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "anyRegression": {
        "type": "boolean"
       },
       "assignees": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "duplicateCandidateCount": {
        "type": "integer"
       },
       "firstSeen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "groupKey": {
        "type": "string"
       },
       "groupingV3": {
        "type": [
         "object",
         "null"
        ],
        "properties": {
         "confidence": {
          "type": "string"
         },
         "isolated": {
          "type": "boolean"
         },
         "observedAt": {
          "$ref": "#/components/schemas/DateTime"
         },
         "occurrenceId": {
          "$ref": "#/components/schemas/Uuid"
         },
         "reason": {
          "type": "string"
         },
         "routable": {
          "type": "boolean"
         },
         "version": {
          "type": "integer"
         }
        },
        "required": [
         "confidence",
         "isolated",
         "observedAt",
         "occurrenceId",
         "reason",
         "routable",
         "version"
        ],
        "additionalProperties": true
       },
       "instanceCount": {
        "type": "integer"
       },
       "lastSeen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "memberIds": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "occurrenceCount": {
        "type": "integer"
       },
       "platforms": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "projectId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "projectName": {
        "type": "string"
       },
       "reportCount": {
        "type": "integer"
       },
       "sampleBugId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "sampleDescription": {
        "type": "string"
       },
       "sampleTitle": {
        "type": "string"
       },
       "sessionCount": {
        "type": "integer"
       },
       "severity": {
        "type": "string"
       },
       "signalClasses": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "signalReason": {
        "type": "string"
       },
       "signatureCanonical": {
        "type": [
         "string",
         "null"
        ]
       },
       "status": {
        "type": "string"
       },
       "userCount": {
        "type": "integer"
       }
      },
      "required": [
       "anyRegression",
       "assignees",
       "duplicateCandidateCount",
       "firstSeen",
       "groupKey",
       "groupingV3",
       "instanceCount",
       "lastSeen",
       "memberIds",
       "occurrenceCount",
       "platforms",
       "projectId",
       "projectName",
       "reportCount",
       "sampleBugId",
       "sampleDescription",
       "sampleTitle",
       "sessionCount",
       "severity",
       "signalClasses",
       "signalReason",
       "signatureCanonical",
       "status",
       "userCount"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "sort": {
     "type": "string"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "direction",
    "groups",
    "limit",
    "offset",
    "sort",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/groups (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsGroupsInstancesAnswer": {
   "type": "object",
   "properties": {
    "bugs": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "affected_session_count": {
        "type": "integer"
       },
       "affected_user_count": {
        "type": "integer"
       },
       "agent_ack": {
        "description": "null in every answer seen; the value's type when set is not listed."
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
       },
       "ai_summary": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "assigned_to": {
        "type": [
         "string",
         "null"
        ]
       },
       "classifier_confidence": {
        "type": "string"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "description": {
        "type": "string"
       },
       "fingerprint": {
        "type": "string"
       },
       "first_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "is_regression": {
        "type": "boolean"
       },
       "last_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "latest_environment": {
        "type": "string"
       },
       "latest_release": {
        "type": "string"
       },
       "occurrence_count": {
        "type": "integer"
       },
       "project_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "project_name": {
        "type": "string"
       },
       "report_count": {
        "type": "integer"
       },
       "reporter_count": {
        "type": "integer"
       },
       "resolved_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "severity": {
        "type": "string"
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
       "status": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "updated_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "url": {
        "type": "string"
       }
      },
      "required": [
       "affected_session_count",
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
      "additionalProperties": true
     }
    },
    "groupKey": {
     "type": "string"
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "bugs",
    "groupKey",
    "limit",
    "offset",
    "projectId",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/groups/:groupKey/instances (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsLiveAnswer": {
   "type": "object",
   "properties": {
    "deliveryFeed": {
     "type": "string"
    },
    "limit": {
     "type": "integer"
    },
    "occurrences": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "browser": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "bug_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "end_user_id": {
        "type": [
         "string",
         "null"
        ]
       },
       "environment": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "event_count": {
        "type": "integer"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "ip_hash": {
        "type": "string"
       },
       "metadata": {
        "type": "object",
        "additionalProperties": true,
        "description": "Free-form: what the client sent."
       },
       "occurred_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "os": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "platform": {
        "type": "string"
       },
       "project_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "project_name": {
        "type": "string"
       },
       "release_version": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "report_count": {
        "type": "integer"
       },
       "reporter_email": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "reporter_id": {
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
       "severity": {
        "type": "string"
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
       "status": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "url": {
        "type": [
         "string",
         "null"
        ]
       },
       "user_agent": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "user_key": {
        "type": "string"
       },
       "viewport": {
        "description": "null in every answer seen; the value's type when set is not listed."
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
     }
    }
   },
   "required": [
    "deliveryFeed",
    "limit",
    "occurrences"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/live (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "BugsPresenceAnswer": {
   "type": "object",
   "properties": {
    "active_sessions": {
     "type": "integer"
    },
    "active_users": {
     "type": "integer"
    },
    "pages": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "active_sessions": {
        "type": "integer"
       },
       "path": {
        "type": "string"
       }
      },
      "required": [
       "active_sessions",
       "path"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "active_sessions",
    "active_users",
    "pages"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/presence (fields from the handler in libservice/src/areas/capture/api/capture_routes.cpp)."
  },
  "BugsRecommendedAnswer": {
   "type": "object",
   "properties": {
    "bugs": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "affected_session_count": {
        "type": "integer"
       },
       "affected_user_count": {
        "type": "integer"
       },
       "agent_ack": {
        "description": "null in every answer seen; the value's type when set is not listed."
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
       },
       "ai_summary": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "any_regression": {
        "type": "boolean"
       },
       "assigned_to": {
        "type": [
         "string",
         "null"
        ]
       },
       "assignee_name": {
        "type": [
         "string",
         "null"
        ]
       },
       "assignees": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "browsers": {
        "type": "array"
       },
       "classifier_confidence": {
        "type": "string"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "description": {
        "type": "string"
       },
       "fingerprint": {
        "type": "string"
       },
       "first_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "group_key": {
        "type": "string"
       },
       "group_severity": {
        "type": "string"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "instance_count": {
        "type": "integer"
       },
       "is_regression": {
        "type": "boolean"
       },
       "last_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "latest_environment": {
        "type": "string"
       },
       "latest_release": {
        "type": "string"
       },
       "member_ids": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "occurrence_count": {
        "type": "integer"
       },
       "oses": {
        "type": "array"
       },
       "platforms": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "project_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "project_name": {
        "type": "string"
       },
       "recommended_score": {
        "type": "number"
       },
       "recommended_severity": {
        "type": "string"
       },
       "report_count": {
        "type": "integer"
)catalogue",
    R"catalogue(       },
       "report_total": {
        "type": "integer"
       },
       "reporter_count": {
        "type": "integer"
       },
       "resolved_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "session_count": {
        "type": "integer"
       },
       "severity": {
        "type": "string"
       },
       "signal_class": {
        "type": "string"
       },
       "signal_classes": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "signal_families": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "signal_family": {
        "type": "string"
       },
       "signal_reason": {
        "type": "string"
       },
       "status": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "updated_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "url": {
        "type": "string"
       },
       "user_count": {
        "type": "integer"
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
       "id",
       "is_regression",
       "latest_environment",
       "latest_release",
       "project_id",
       "reporter_count",
       "resolved_at",
       "updated_at",
       "url"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "bugs",
    "limit",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/recommended (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "BugsReportersBugsAnswer": {
   "type": "object",
   "properties": {
    "bugs": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "first_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "last_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "report_count": {
        "type": "integer"
       },
       "reported_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "severity": {
        "type": "string"
       },
       "status": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "url": {
        "type": "string"
       }
      },
      "required": [
       "id",
       "reported_at",
       "url"
      ],
      "additionalProperties": true
     }
    },
    "email": {
     "type": "string"
    },
    "stats": {
     "type": "object",
     "properties": {
      "first_report": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "last_report": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "severities": {
       "type": "object",
       "properties": {
        "critical": {
         "type": "integer"
        },
        "medium": {
         "type": "integer"
        }
       },
       "additionalProperties": true
      },
      "total_bugs": {
       "type": "integer"
      }
     },
     "required": [
      "first_report",
      "last_report",
      "severities",
      "total_bugs"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "bugs",
    "email",
    "stats"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/reporters/:email/bugs (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "BugsSearchAnswer": {
   "type": "object",
   "properties": {
    "groups": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "anyRegression": {
        "type": "boolean"
       },
       "assignees": {
        "type": "array"
       },
       "duplicateCandidateCount": {
        "type": "integer"
       },
       "firstSeen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "groupKey": {
        "type": "string"
       },
       "groupingV3": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "instanceCount": {
        "type": "integer"
       },
       "lastSeen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "memberIds": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "occurrenceCount": {
        "type": "integer"
       },
       "platforms": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "projectId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "projectName": {
        "type": "string"
       },
       "reportCount": {
        "type": "integer"
       },
       "sampleBugId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "sampleDescription": {
        "type": "string"
       },
       "sampleTitle": {
        "type": "string"
       },
       "score": {
        "type": "number"
       },
       "sessionCount": {
        "type": "integer"
       },
       "severity": {
        "type": "string"
       },
       "signalClasses": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "signalReason": {
        "type": "string"
       },
       "signatureCanonical": {
        "type": "string"
       },
       "status": {
        "type": "string"
       },
       "userCount": {
        "type": "integer"
       }
      },
      "required": [
       "anyRegression",
       "assignees",
       "duplicateCandidateCount",
       "firstSeen",
       "groupKey",
       "groupingV3",
       "instanceCount",
       "lastSeen",
       "memberIds",
       "occurrenceCount",
       "platforms",
       "projectId",
       "projectName",
       "reportCount",
       "sampleBugId",
       "sampleDescription",
       "sampleTitle",
       "sessionCount",
       "severity",
       "signalClasses",
       "signalReason",
       "signatureCanonical",
       "status",
       "userCount"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "query": {
     "type": "string"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "groups",
    "limit",
    "query",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/search (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsStatsAnswer": {
   "type": "object",
   "properties": {
    "aggregates": {
     "type": "object",
     "properties": {
      "avg_resolution_hours": {
       "type": [
        "number",
        "null"
       ]
      },
      "open": {
       "type": "integer"
      },
      "sev_critical": {
       "type": "integer"
      },
      "sev_high": {
       "type": "integer"
      },
      "sev_low": {
       "type": "integer"
      },
      "sev_medium": {
       "type": "integer"
      },
      "status_known": {
       "type": "integer"
      },
      "status_new": {
       "type": "integer"
      },
      "status_resolved": {
       "type": "integer"
      },
      "status_silenced": {
       "type": "integer"
      },
      "status_working": {
       "type": "integer"
      },
      "total": {
       "type": "integer"
      },
      "total_reports": {
       "type": "integer"
      }
     },
     "required": [
      "avg_resolution_hours",
      "open",
      "sev_critical",
      "sev_high",
      "sev_low",
      "sev_medium",
      "status_known",
      "status_new",
      "status_resolved",
      "status_silenced",
      "status_working",
      "total",
      "total_reports"
     ],
     "additionalProperties": true
    },
    "deliveryFeed": {
     "type": "string"
    },
    "health_score": {
     "type": "integer"
    },
    "mttr_hours": {
     "type": [
      "number",
      "null"
     ]
    },
    "previous": {
     "type": "object",
     "properties": {
      "avg_resolution_hours": {
       "description": "null in every answer seen; the value's type when set is not listed."
      },
      "open": {
       "type": "integer"
      },
      "sev_critical": {
       "type": "integer"
      },
      "sev_high": {
       "type": "integer"
      },
      "status_new": {
       "type": "integer"
      },
      "status_resolved": {
       "type": "integer"
      },
      "total": {
       "type": "integer"
      },
      "total_reports": {
       "type": "integer"
      }
     },
     "required": [
      "avg_resolution_hours",
      "open",
      "sev_critical",
      "sev_high",
      "status_new",
      "status_resolved",
      "total",
      "total_reports"
     ],
     "additionalProperties": true
    },
    "timeline": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bug_count": {
        "type": "integer"
       },
       "date": {
        "type": "string"
       },
       "report_count": {
        "type": "integer"
       }
      },
      "required": [
       "bug_count",
       "date"
      ],
      "additionalProperties": true
     }
    },
    "topBugs": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "first_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "last_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "report_count": {
        "type": "integer"
       },
       "severity": {
        "type": "string"
       },
       "status": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "url": {
        "type": "string"
       }
      },
      "required": [
       "id",
       "url"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "aggregates",
    "deliveryFeed",
    "health_score",
    "mttr_hours",
    "previous",
    "timeline",
    "topBugs"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/stats (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "EndUsersAnswer": {
   "type": "object",
   "properties": {
    "query": {
     "type": "string"
    },
    "users": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bugCount": {
        "type": "integer"
       },
       "email": {
        "type": [
         "string",
         "null"
        ]
       },
       "endUserId": {
        "type": [
         "string",
         "null"
        ]
       },
       "kind": {
        "type": "string"
       },
       "lastSeen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "occurrenceCount": {
        "type": "integer"
       },
       "userKey": {
        "type": "string"
       }
      },
      "required": [
       "bugCount",
       "email",
       "endUserId",
       "kind",
       "lastSeen",
       "occurrenceCount",
       "userKey"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "query",
    "users"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/end-users (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "EndUsersTimelineAnswer": {
   "type": "object",
   "properties": {
    "identity": {
     "type": "object",
     "properties": {
      "bugCount": {
       "type": "integer"
      },
      "emails": {
       "type": "array",
       "items": {
        "type": "string"
       }
      },
      "endUserId": {
       "type": [
        "string",
        "null"
       ]
      },
      "firstSeen": {
       "$ref": "#/components/schemas/DateTime"
      },
      "kind": {
       "type": "string"
      },
      "lastSeen": {
       "$ref": "#/components/schemas/DateTime"
      },
      "occurrenceCount": {
       "type": "integer"
      },
      "platforms": {
       "type": "array",
       "items": {
        "type": "string"
       }
      },
      "sessionCount": {
       "type": "integer"
      },
      "userKey": {
       "type": "string"
      }
     },
     "required": [
      "bugCount",
      "emails",
      "endUserId",
      "firstSeen",
      "kind",
      "lastSeen",
      "occurrenceCount",
      "sessionCount",
      "userKey"
     ],
     "additionalProperties": true
    },
    "limit": {
     "type": "integer"
    },
    "occurrences": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "browser": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "bug_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "environment": {
        "type": [
         "string",
         "null"
        ]
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "occurred_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "os": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "platform": {
        "type": "string"
       },
       "project_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "project_name": {
        "type": "string"
       },
       "release_version": {
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
       "severity": {
        "type": "string"
       },
       "signal_class": {
        "type": "string"
       },
       "status": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "url": {
        "type": [
         "string",
         "null"
        ]
       }
      },
      "required": [
       "browser",
       "bug_id",
       "environment",
       "id",
       "occurred_at",
       "os",
       "platform",
       "project_id",
       "release_version",
       "session_id",
       "url"
      ],
      "additionalProperties": true
     }
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "identity",
    "limit",
    "occurrences",
    "offset",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/end-users/:userKey/timeline (fields from the handler in libservice/src/areas/bugs/api/bugs_insight_routes.cpp)."
  },
  "OrgUsageAnswer": {
   "type": "object",
   "properties": {
    "agentTokens": {
     "$ref": "#/components/schemas/UsageMeter"
    },
    "aiRequests": {
)catalogue",
    R"catalogue(     "type": "object",
     "properties": {
      "current": {
       "type": "integer"
      },
      "limit": {
       "description": "null in every answer seen; the value's type when set is not listed."
      }
     },
     "required": [
      "current",
      "limit"
     ],
     "additionalProperties": true
    },
    "bugsThisMonth": {
     "$ref": "#/components/schemas/UsageMeter"
    },
    "features": {
     "type": "object",
     "properties": {
      "mcp": {
       "type": "boolean"
      },
      "mcp_source": {
       "type": "string"
      }
     },
     "required": [
      "mcp",
      "mcp_source"
     ],
     "additionalProperties": true
    },
    "integrations": {
     "$ref": "#/components/schemas/UsageMeter"
    },
    "members": {
     "$ref": "#/components/schemas/UsageMeter"
    },
    "overage": {
     "type": "object",
     "properties": {
      "agentTokens": {
       "type": "boolean"
      },
      "any": {
       "type": "boolean"
      },
      "bugsThisMonth": {
       "type": "boolean"
      },
      "integrations": {
       "type": "boolean"
      },
      "members": {
       "type": "boolean"
      },
      "projects": {
       "type": "boolean"
      }
     },
     "required": [
      "agentTokens",
      "bugsThisMonth",
      "integrations",
      "members",
      "projects"
     ],
     "additionalProperties": true
    },
    "period": {
     "type": "string"
    },
    "plan": {
     "type": "string"
    },
    "prepaidCredits": {
     "type": "integer"
    },
    "projects": {
     "$ref": "#/components/schemas/UsageMeter"
    }
   },
   "required": [
    "agentTokens",
    "bugsThisMonth",
    "integrations",
    "members",
    "period",
    "plan",
    "projects"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/org/usage (fields from the handler in libservice/src/areas/triage/api/triage_notification_routes.cpp)."
  },
  "PortfolioOverviewAnswer": {
   "type": "object",
   "properties": {
    "organizations": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "criticalOpen": {
        "type": "integer"
       },
       "lastBugSeen": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "name": {
        "type": "string"
       },
       "newBugs7d": {
        "type": "integer"
       },
       "openBugs": {
        "type": "integer"
       },
       "orgId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "plan": {
        "type": "string"
       },
       "projects": {
        "type": "integer"
       },
       "role": {
        "type": "string"
       },
       "slug": {
        "type": "string"
       }
      },
      "required": [
       "criticalOpen",
       "lastBugSeen",
       "name",
       "newBugs7d",
       "openBugs",
       "orgId",
       "plan",
       "projects",
       "role",
       "slug"
      ],
      "additionalProperties": true
     }
    },
    "totals": {
     "type": "object",
     "properties": {
      "criticalOpen": {
       "type": "integer"
      },
      "openBugs": {
       "type": "integer"
      },
      "organizations": {
       "type": "integer"
      },
      "projects": {
       "type": "integer"
      }
     },
     "required": [
      "criticalOpen",
      "openBugs",
      "organizations",
      "projects"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "organizations",
    "totals"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/portfolio/overview (fields from the handler in libservice/src/areas/portfolio/api/portfolio_routes.cpp)."
  },
  "ProjectsAgentNotificationsAnswer": {
   "type": "object",
   "properties": {
    "cursor": {
     "type": "string"
    },
    "notifications": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bugId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "severity": {
        "type": "string"
       },
       "title": {
        "type": "string"
       },
       "trigger": {
        "type": "string"
       }
      },
      "required": [
       "createdAt",
       "id",
       "severity",
       "title"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "cursor",
    "notifications"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/projects/:id/agent-notifications (fields from the handler in libservice/src/areas/handoff/api/handoff_routes.cpp)."
  },
  "ProjectsAgentSettingsAnswer": {
   "type": "object",
   "properties": {
    "settings": {
     "$ref": "#/components/schemas/AgentSettings"
    }
   },
   "required": [
    "settings"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/projects/:id/agent-settings (fields from the handler in libservice/src/areas/handoff/api/handoff_routes.cpp)."
  },
  "ProjectsScrubbingAnswer": {
   "type": "object",
   "properties": {
    "counts": {
     "$ref": "#/components/schemas/ScrubCounts"
    },
    "defaultKeys": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "exactKeys": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "extraKeys": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "lastScrubbedAt": {
     "type": [
      "integer",
      "null"
     ]
    },
    "marker": {
     "type": "string"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "scrubMessages": {
     "type": "boolean"
    },
    "storeIpAddress": {
     "type": "boolean"
    },
    "total": {
     "type": "integer"
    },
    "updatedAt": {
     "type": [
      "integer",
      "null"
     ]
    },
    "updatedBy": {
     "type": [
      "string",
      "null"
     ]
    }
   },
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/projects/:id/scrubbing (fields from the handler in libservice/src/areas/capture/api/scrubbing_routes.cpp)."
  },
  "AlertsDigestsResolutionResultAnswer": {
   "type": "object",
   "properties": {
    "action": {
     "type": "string"
    },
    "batchId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "createdAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "generation": {
     "type": "integer"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "nextGeneration": {
     "type": "integer"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "replayed": {
     "type": "boolean"
    },
    "requestId": {
     "$ref": "#/components/schemas/Uuid"
    }
   },
   "required": [
    "action",
    "batchId",
    "createdAt",
    "generation",
    "id",
    "nextGeneration",
    "projectId",
    "replayed",
    "requestId"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/alerts/digests/:batchId/resolution (fields from the handler in libservice/src/areas/triage/api/triage_digest_routes.cpp)."
  },
  "AlertsPreviewResultAnswer": {
   "type": "object",
   "properties": {
    "connections": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "decision": {
        "type": "string"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "name": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "reason": {
        "type": [
         "string",
         "null"
        ]
       },
       "type": {
        "type": "string"
       }
      },
      "required": [
       "decision",
       "id",
       "name",
       "reason",
       "type"
      ],
      "additionalProperties": true
     }
    },
    "email": {
     "type": "object",
     "properties": {
      "digestFreq": {
       "type": "string"
      },
      "disposition": {
       "type": "string"
      },
      "emailLevel": {
       "type": "string"
      }
     },
     "required": [
      "digestFreq",
      "disposition",
      "emailLevel"
     ],
     "additionalProperties": true
    },
    "projectGate": {
     "type": "object",
     "properties": {
      "decision": {
       "type": "string"
      },
      "quietHours": {
       "type": "object",
       "properties": {
        "active": {
         "type": "boolean"
        },
        "until": {
         "$ref": "#/components/schemas/DateTime"
        }
       },
       "required": [
        "active",
        "until"
       ],
       "additionalProperties": true
      },
      "reason": {
       "type": [
        "string",
        "null"
       ]
      }
     },
     "required": [
      "decision",
      "reason"
     ],
     "additionalProperties": true
    },
    "totalDestinations": {
     "type": "integer"
    }
   },
   "required": [
    "connections",
    "email",
    "projectGate",
    "totalDestinations"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/alerts/preview (fields from the handler in libservice/src/areas/integrations/api/integrations_routes.cpp)."
  },
  "BillingCardSetupSessionResultAnswer": {
   "type": "object",
   "properties": {
    "url": {
     "type": "string"
    }
   },
   "required": [
    "url"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/billing/card-setup-session (fields from the handler in libservice/src/areas/operations/api/billing_routes.cpp)."
  },
  "BillingCreateCheckoutSessionResultAnswer": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    },
    "url": {
     "type": "string"
    }
   },
   "required": [
    "id",
    "url"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/billing/create-checkout-session (fields from the handler in libservice/src/areas/operations/api/billing_routes.cpp)."
  },
  "BillingPortalResultAnswer": {
   "type": "object",
   "properties": {
    "url": {
     "type": "string"
    }
   },
   "required": [
    "url"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/billing/portal (fields from the handler in libservice/src/areas/operations/api/billing_routes.cpp)."
  },
  "BillingWebhookResultAnswer": {
   "type": "object",
   "properties": {
    "outcome": {
     "type": "string"
    },
    "received": {
     "type": "boolean"
    }
   },
   "required": [
    "outcome",
    "received"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/billing/webhook (fields from the handler in libservice/src/areas/operations/api/billing_routes.cpp)."
  },
  "BugsResultAnswer": {
   "type": "object",
   "properties": {
    "deduplicated": {
     "type": "boolean"
    },
    "fingerprint": {
     "type": "string"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "is_regression": {
     "type": "boolean"
    },
    "occurrenceId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "regression": {
     "type": "boolean"
    }
   },
   "required": [
    "deduplicated",
    "fingerprint",
    "id",
    "is_regression",
    "occurrenceId",
    "regression"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/bugs (fields from the handler in libservice/src/areas/bugs/api/bugs_routes.cpp)."
  },
  "BugsAckResultAnswer": {
   "type": "object",
   "properties": {
    "agentUpdate": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "action": {
       "type": "string"
      },
      "deliveries": {
       "type": "integer"
      }
     },
     "required": [
      "action",
      "deliveries"
     ],
     "additionalProperties": true
    },
    "bugId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "canConnect": {
     "type": "boolean"
    },
    "history": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/AgentStatusHistoryEntry"
     }
    },
    "notified": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "channels": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "channel": {
          "type": "string"
         },
         "channelName": {
          "description": "null in every answer seen; the value's type when set is not listed."
         },
         "createdAt": {
          "$ref": "#/components/schemas/DateTime"
         },
         "deliveredAt": {
          "$ref": "#/components/schemas/NullableDateTime"
         },
         "detail": {
          "description": "null in every answer seen; the value's type when set is not listed."
         },
         "id": {
          "$ref": "#/components/schemas/Uuid"
         },
         "status": {
          "type": "string"
         },
         "trigger": {
          "type": "string"
         }
        },
        "required": [
         "channel",
         "channelName",
         "createdAt",
         "deliveredAt",
         "detail",
         "id",
         "status"
        ],
        "additionalProperties": true
       }
      },
      "trigger": {
       "type": "string"
      }
     },
     "required": [
      "at"
     ],
     "additionalProperties": true
    },
    "pickedUp": {
     "type": "object",
     "properties": {
      "at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "by": {
       "type": "string"
      },
      "note": {
       "type": [
        "string",
        "null"
       ]
      }
     },
     "required": [
      "at",
      "by"
     ],
     "additionalProperties": true
    },
    "prOpened": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "url": {
       "type": "string"
      }
     },
     "required": [
      "at",
      "url"
     ],
     "additionalProperties": true
    },
    "state": {
     "type": "string"
    }
   },
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/bugs/:id/ack (fields from the handler in libservice/src/areas/handoff/api/handoff_routes.cpp)."
  },
  "BugsNotifyAgentResultAnswer": {
   "type": "object",
   "properties": {
    "bugId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "noChannel": {
     "type": "boolean"
    },
    "notifications": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/AgentNotificationChannel"
     }
    },
    "reused": {
     "type": "boolean"
    }
   },
   "required": [
    "noChannel",
    "notifications",
    "reused"
   ],
   "additionalProperties": true,
)catalogue",
    R"catalogue(   "description": "The 2XX answer of POST /v1/bugs/:id/notify-agent (fields from the handler in libservice/src/areas/handoff/api/handoff_routes.cpp)."
  },
  "BugsManualResultAnswer": {
   "type": "object",
   "properties": {
    "deduplicated": {
     "type": "boolean"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "occurrenceId": {
     "$ref": "#/components/schemas/Uuid"
    }
   },
   "required": [
    "deduplicated",
    "id",
    "occurrenceId"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/bugs/manual (fields from the handler in libservice/src/areas/capture/api/capture_routes.cpp)."
  },
  "IngestResultAnswer": {
   "type": "object",
   "properties": {
    "deduplicated": {
     "type": "boolean"
    },
    "fingerprint": {
     "type": "string"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "is_regression": {
     "type": "boolean"
    },
    "occurrenceId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "regression": {
     "type": "boolean"
    }
   },
   "required": [
    "deduplicated",
    "fingerprint",
    "id",
    "is_regression",
    "occurrenceId",
    "regression"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/ingest (fields from the handler in libservice/src/areas/capture/api/capture_routes.cpp)."
  },
  "IngestPresenceResultAnswer": {
   "type": "object",
   "properties": {
    "ok": {
     "type": "boolean"
    }
   },
   "required": [
    "ok"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/ingest/presence (fields from the handler in libservice/src/areas/capture/api/capture_routes.cpp)."
  },
  "IntegrationsRotateSecretResultAnswer": {
   "type": "object",
   "properties": {
    "bearer": {
     "type": "object",
     "properties": {
      "last4": {
       "type": "string"
      },
      "present": {
       "type": "boolean"
      }
     },
     "required": [
      "last4",
      "present"
     ],
     "additionalProperties": true
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "signing": {
     "type": "object",
     "properties": {
      "present": {
       "type": "boolean"
      },
      "previousValidUntil": {
       "$ref": "#/components/schemas/DateTime"
      },
      "secret": {
       "type": "string"
      }
     },
     "required": [
      "present",
      "secret"
     ],
     "additionalProperties": true
    },
    "signingSecret": {
     "type": "string"
    }
   },
   "required": [
    "id"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/integrations/:id/rotate-secret (fields from the handler in libservice/src/areas/integrations/api/integrations_routes.cpp)."
  },
  "IntegrationsTestResultAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /v1/integrations/:id/test (fields from the handler in libservice/src/areas/integrations/api/integrations_routes.cpp)."
  },
  "ProjectsTestEventResultAnswer": {
   "type": "object",
   "properties": {
    "deduplicated": {
     "type": "boolean"
    },
    "fingerprint": {
     "type": "string"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "is_regression": {
     "type": "boolean"
    },
    "occurrenceId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "platform": {
     "type": "string"
    },
    "regression": {
     "type": "boolean"
    }
   },
   "required": [
    "deduplicated",
    "fingerprint",
    "id",
    "is_regression",
    "occurrenceId",
    "platform",
    "regression"
   ],
   "additionalProperties": true,
   "description": "The 201 answer of POST /v1/projects/:id/test-event (fields from the handler in libservice/src/areas/capture/api/capture_routes.cpp)."
  },
  "AlertsPolicyReplacedAnswer": {
   "type": "object",
   "properties": {
    "policy": {
     "type": "object",
     "properties": {
      "excludes": {
       "$ref": "#/components/schemas/AlertExcludes"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "quietHours": {
       "type": [
        "object",
        "null"
       ],
       "properties": {
        "end": {
         "type": "string"
        },
        "start": {
         "type": "string"
        },
        "timeZone": {
         "type": "string"
        }
       },
       "required": [
        "end",
        "start",
        "timeZone"
       ],
       "additionalProperties": true
      },
      "severityFloor": {
       "type": [
        "string",
        "null"
       ]
      },
      "updatedAt": {
       "$ref": "#/components/schemas/DateTime"
      }
     },
     "required": [
      "excludes",
      "projectId",
      "quietHours",
      "severityFloor",
      "updatedAt"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "policy"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PUT /v1/alerts/policy (fields from the handler in libservice/src/areas/integrations/api/integrations_routes.cpp)."
  },
  "BillingBudgetReplacedAnswer": {
   "type": "object",
   "properties": {
    "autoTopUp": {
     "type": "boolean"
    },
    "month": {
     "type": "string"
    },
    "monthToDateSpendCents": {
     "type": "integer"
    },
    "monthlyBudgetCents": {
     "type": "integer"
    },
    "paymentMethodOnFile": {
     "type": "boolean"
    }
   },
   "required": [
    "autoTopUp",
    "month",
    "monthToDateSpendCents",
    "monthlyBudgetCents",
    "paymentMethodOnFile"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PUT /v1/billing/budget (fields from the handler in libservice/src/areas/operations/api/billing_routes.cpp)."
  },
  "ProjectsAgentSettingsReplacedAnswer": {
   "type": "object",
   "properties": {
    "settings": {
     "$ref": "#/components/schemas/AgentSettings"
    }
   },
   "required": [
    "settings"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PUT /v1/projects/:id/agent-settings (fields from the handler in libservice/src/areas/handoff/api/handoff_routes.cpp)."
  },
  "ProjectsScrubbingReplacedAnswer": {
   "type": "object",
   "properties": {
    "counts": {
     "$ref": "#/components/schemas/ScrubCounts"
    },
    "defaultKeys": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "exactKeys": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "extraKeys": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "lastScrubbedAt": {
     "$ref": "#/components/schemas/NullableDateTime"
    },
    "marker": {
     "type": "string"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "scrubMessages": {
     "type": "boolean"
    },
    "storeIpAddress": {
     "type": "boolean"
    },
    "total": {
     "type": "integer"
    },
    "updatedAt": {
     "type": "integer"
    },
    "updatedBy": {
     "type": "string"
    }
   },
   "additionalProperties": true,
   "description": "The 200 answer of PUT /v1/projects/:id/scrubbing (fields from the handler in libservice/src/areas/capture/api/scrubbing_routes.cpp)."
  },
  "AlertExcludes": {
   "additionalProperties": true,
   "properties": {
    "environments": {
     "items": {
      "type": "string"
     },
     "type": "array"
    },
    "events": {
     "items": {
      "type": "string"
     },
     "type": "array"
    },
    "titleContains": {
     "items": {
      "type": "string"
     },
     "type": "array"
    },
    "urlContains": {
     "items": {
      "type": "string"
     },
     "type": "array"
    }
   },
   "required": [
    "environments",
    "events",
    "titleContains",
    "urlContains"
   ],
   "type": "object"
  },
  "AgentStatusHistoryEntry": {
   "additionalProperties": true,
   "properties": {
    "action": {
     "type": "string"
    },
    "at": {
     "$ref": "#/components/schemas/DateTime"
    },
    "by": {
     "type": "string"
    },
    "channels": {
     "items": {
      "type": "string"
     },
     "type": "array"
    },
    "note": {
     "type": "string"
    },
    "prUrl": {
     "type": "string"
    },
    "trigger": {
     "type": "string"
    }
   },
   "required": [
    "action",
    "at",
    "by"
   ],
   "type": "object"
  },
  "AgentNotificationChannel": {
   "additionalProperties": true,
   "properties": {
    "channel": {
     "type": [
      "string",
      "null"
     ]
    },
    "channelName": {
     "type": [
      "string",
      "null"
     ]
    },
    "createdAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "deliveredAt": {
     "$ref": "#/components/schemas/NullableDateTime"
    },
    "detail": {
     "type": [
      "string",
      "null"
     ]
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "status": {
     "type": "string"
    },
    "trigger": {
     "type": "string"
    }
   },
   "required": [
    "channel",
    "channelName",
    "createdAt",
    "deliveredAt",
    "detail",
    "id",
    "status"
   ],
   "type": "object"
  },
  "UsageMeter": {
   "additionalProperties": true,
   "properties": {
    "atLimit": {
     "type": "boolean"
    },
    "current": {
     "type": "integer"
    },
    "limit": {
     "type": "integer"
    },
    "overage": {
     "type": "boolean"
    }
   },
   "required": [
    "atLimit",
    "current",
    "limit"
   ],
   "type": "object"
  },
  "AgentSettings": {
   "additionalProperties": true,
   "properties": {
    "autoNotify": {
     "type": "boolean"
    },
    "minSeverity": {
     "type": "string"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    }
   },
   "required": [
    "autoNotify",
    "minSeverity",
    "projectId"
   ],
   "type": "object"
  },
  "ScrubCounts": {
   "additionalProperties": true,
   "properties": {
    "bearer": {
     "type": "integer"
    },
    "card": {
     "type": "integer"
    },
    "ip": {
     "type": "integer"
    },
    "key": {
     "type": "integer"
    },
    "pair": {
     "type": "integer"
    },
    "token": {
     "type": "integer"
    }
   },
   "required": [
    "bearer",
    "card",
    "ip",
    "key",
    "pair",
    "token"
   ],
   "type": "object"
  },
  "AdminSupportSessionOneDeletedAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of DELETE /v1/admin/support/session/:id (fields from the handler in libservice/src/areas/support/api/support_routes.cpp)."
  },
  "OrganizationsChunkUploadAnswer": {
   "type": "object",
   "properties": {
    "accept": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "chunkSize": {
     "type": "integer"
    },
    "chunksPerRequest": {
     "type": "integer"
    },
    "compression": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "concurrency": {
     "type": "integer"
    },
    "hashAlgorithm": {
     "type": "string"
    },
    "maxFileSize": {
     "type": "integer"
    },
    "maxRequestSize": {
     "type": "integer"
    },
    "url": {
     "type": "string"
    }
   },
   "required": [
    "accept",
    "chunkSize",
    "chunksPerRequest",
    "compression",
    "concurrency",
    "hashAlgorithm",
    "maxFileSize",
    "maxRequestSize",
    "url"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /api/0/organizations/:org/chunk-upload (fields from the handler in libservice/src/areas/sourcemaps/api/sourcemaps_routes.cpp)."
  },
  "AdminActivityAnswer": {
   "type": "object",
   "properties": {
    "activity": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "detail": {
        "type": "string"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "summary": {
        "type": "string"
       },
       "ts": {
        "$ref": "#/components/schemas/DateTime"
       },
       "type": {
        "type": "string"
       }
      },
      "required": [
       "detail",
       "id",
       "summary",
       "ts",
       "type"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "activity"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/activity (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminAiUsageAnswer": {
   "type": "object",
   "properties": {
    "byFeature": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "calls": {
        "type": "integer"
       },
       "feature": {
        "type": "string"
       },
       "model": {
        "type": "string"
       },
       "provider": {
        "type": "string"
       },
       "tokens": {
        "type": "integer"
       }
      },
      "required": [
       "calls",
       "feature",
       "model",
       "provider",
       "tokens"
      ],
      "additionalProperties": true
     }
    },
    "daily": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "calls": {
        "type": "integer"
       },
       "date": {
        "type": "string"
       },
       "tokens": {
        "type": "integer"
       }
      },
      "required": [
       "calls",
       "date",
       "tokens"
      ],
      "additionalProperties": true
     }
    },
    "days": {
     "type": "integer"
    },
    "summary": {
     "type": "object",
     "properties": {
      "total_calls": {
       "type": "integer"
      },
      "total_input_tokens": {
       "type": "integer"
      },
      "total_output_tokens": {
       "type": "integer"
      },
      "total_tokens": {
       "type": "integer"
      }
     },
     "required": [
      "total_calls",
      "total_input_tokens",
      "total_output_tokens",
      "total_tokens"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "byFeature",
    "daily",
    "days",
    "summary"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/ai-usage (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminApiKeyStatsAnswer": {
   "type": "object",
   "properties": {
    "active_keys": {
     "type": "integer"
    },
    "never_used": {
     "type": "integer"
    },
    "total_keys": {
     "type": "integer"
    },
    "used_last_24h": {
     "type": "integer"
    }
   },
   "required": [
    "active_keys",
    "never_used",
    "total_keys",
    "used_last_24h"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/api-key-stats (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
)catalogue",
    R"catalogue(  "AdminApiKeysAnswer": {
   "type": "object",
   "properties": {
    "keys": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "active": {
        "type": "boolean"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "env": {
        "type": "string"
       },
       "expires_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "label": {
        "type": "string"
       },
       "last_used": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "org_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "org_name": {
        "type": "string"
       },
       "prefix": {
        "type": "string"
       },
       "project_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "project_name": {
        "type": "string"
       },
       "revoked_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       }
      },
      "required": [
       "active",
       "created_at",
       "env",
       "expires_at",
       "id",
       "label",
       "last_used",
       "org_id",
       "org_name",
       "prefix",
       "project_id",
       "project_name",
       "revoked_at"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "keys",
    "limit",
    "offset",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/api-keys (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminCustomersAnswer": {
   "type": "object",
   "properties": {
    "customers": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "admin_notes": {
        "type": "string"
       },
       "billing_status": {
        "type": "string"
       },
       "contact_email": {
        "type": "string"
       },
       "contact_name": {
        "type": "string"
       },
       "counts": {
        "$ref": "#/components/schemas/CustomerCounts"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "last_activity_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "last_bug_seen": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "lifecycle_stage": {
        "type": "string"
       },
       "name": {
        "type": "string"
       },
       "plan": {
        "type": "string"
       },
       "slug": {
        "type": "string"
       },
       "use_case": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "waitlist_created_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "waitlist_id": {
        "type": [
         "string",
         "null"
        ]
       },
       "waitlist_status": {
        "type": [
         "string",
         "null"
        ]
       }
      },
      "required": [
       "admin_notes",
       "billing_status",
       "contact_email",
       "contact_name",
       "counts",
       "created_at",
       "id",
       "last_activity_at",
       "last_bug_seen",
       "lifecycle_stage",
       "name",
       "plan",
       "slug",
       "use_case",
       "waitlist_created_at",
       "waitlist_id",
       "waitlist_status"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "customers",
    "limit",
    "offset",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/customers (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminCustomersOneAnswer": {
   "type": "object",
   "properties": {
    "customer": {
     "type": "object",
     "properties": {
      "admin_notes": {
       "type": "string"
      },
      "billing_status": {
       "type": "string"
      },
      "contact_email": {
       "type": "string"
      },
      "contact_name": {
       "type": "string"
      },
      "counts": {
       "$ref": "#/components/schemas/CustomerCounts"
      },
      "created_at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "last_activity_at": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "last_bug_seen": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "lifecycle_stage": {
       "type": "string"
      },
      "name": {
       "type": "string"
      },
      "plan": {
       "type": "string"
      },
      "slug": {
       "type": "string"
      },
      "use_case": {
       "type": [
        "string",
        "null"
       ]
      },
      "waitlist_created_at": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "waitlist_id": {
       "type": [
        "string",
        "null"
       ]
      },
      "waitlist_status": {
       "type": [
        "string",
        "null"
       ]
      }
     },
     "required": [
      "admin_notes",
      "billing_status",
      "contact_email",
      "contact_name",
      "counts",
      "created_at",
      "id",
      "last_activity_at",
      "last_bug_seen",
      "lifecycle_stage",
      "name",
      "plan",
      "slug",
      "use_case",
      "waitlist_created_at",
      "waitlist_id",
      "waitlist_status"
     ],
     "additionalProperties": true
    },
    "projects": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "active_keys": {
        "type": "integer"
       },
       "bug_count": {
        "type": "integer"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "last_key_used": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "name": {
        "type": "string"
       },
       "platform": {
        "type": "string"
       },
       "slug": {
        "type": "string"
       }
      },
      "required": [
       "active_keys",
       "bug_count",
       "created_at",
       "id",
       "last_key_used",
       "name",
       "platform",
       "slug"
      ],
      "additionalProperties": true
     }
    },
    "team": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "email": {
        "type": "string"
       },
       "email_verified": {
        "type": "boolean"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "joined_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "last_login": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "name": {
        "type": "string"
       },
       "role": {
        "type": "string"
       }
      },
      "required": [
       "email",
       "email_verified",
       "id",
       "joined_at",
       "last_login",
       "name",
       "role"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "customer",
    "projects",
    "team"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/customers/:orgId (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminDbTablesAnswer": {
   "type": "object",
   "properties": {
    "tables": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "row_count": {
        "type": "integer"
       },
       "table_name": {
        "type": "string"
       }
      },
      "required": [
       "row_count",
       "table_name"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "tables"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/db/tables (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminDbTablesOneAnswer": {
   "type": "object",
   "properties": {
    "columns": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "rows": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "avatar_url": {
        "type": [
         "string",
         "null"
        ]
       },
       "consumed_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "created_at": {
        "type": "integer"
       },
       "created_by": {
        "type": "string"
       },
       "email": {
        "type": "string"
       },
       "email_verified": {
        "type": "integer"
       },
       "env": {
        "type": "string"
       },
       "expires_at": {
        "type": [
         "integer",
         "null"
        ]
       },
       "feature": {
        "type": "string"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "input_tokens": {
        "type": "integer"
       },
       "key_hash": {
        "type": "string"
       },
       "label": {
        "type": "string"
       },
       "last_login_at": {
        "type": "integer"
       },
       "last_org_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "last_used": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "model": {
        "type": "string"
       },
       "name": {
        "type": "string"
       },
       "org_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "output_tokens": {
        "type": "integer"
       },
       "password_hash": {
        "type": "string"
       },
       "prefix": {
        "type": "string"
       },
       "previous_login_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "project_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "provider": {
        "type": "string"
       },
       "revision": {
        "type": "integer"
       },
       "revoked_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "status": {
        "type": "string"
       },
       "succeeded": {
        "type": "integer"
       },
       "token_hash": {
        "type": "string"
       },
       "updated_at": {
        "type": "integer"
       },
       "used_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "user_id": {
        "$ref": "#/components/schemas/Uuid"
       }
      },
      "required": [
       "created_at",
       "id"
      ],
      "additionalProperties": true
     }
    },
    "table": {
     "type": "string"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "columns",
    "limit",
    "offset",
    "rows",
    "table",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/db/tables/:table (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminOrganizationsAnswer": {
   "type": "object",
   "properties": {
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "organizations": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "member_count": {
        "type": "integer"
       },
       "name": {
        "type": "string"
       },
       "plan": {
        "type": "string"
       },
       "project_count": {
        "type": "integer"
       },
       "slug": {
        "type": "string"
       }
      },
      "required": [
       "created_at",
       "id",
       "member_count",
       "name",
       "plan",
       "project_count",
       "slug"
      ],
      "additionalProperties": true
     }
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "limit",
    "offset",
    "organizations",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/organizations (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminOverviewAnswer": {
   "type": "object",
   "properties": {
    "counts": {
     "type": "object",
     "properties": {
      "api_keys": {
       "type": "integer"
      },
      "bugs": {
       "type": "integer"
      },
      "events": {
       "type": "integer"
      },
      "organizations": {
       "type": "integer"
      },
      "projects": {
       "type": "integer"
      },
      "users": {
       "type": "integer"
      },
      "waitlist_pending": {
       "type": "integer"
      }
     },
     "required": [
      "api_keys",
      "bugs",
      "events",
      "organizations",
      "projects",
      "users",
      "waitlist_pending"
     ],
     "additionalProperties": true
    },
    "growth": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bugs": {
        "type": "integer"
       },
       "date": {
        "type": "string"
       },
       "organizations": {
        "type": "integer"
       },
       "users": {
        "type": "integer"
       }
      },
      "required": [
       "bugs",
       "date",
       "organizations",
       "users"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "counts",
    "growth"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/overview (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminProjectsAnswer": {
   "type": "object",
   "properties": {
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "projects": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "active_keys": {
        "type": "integer"
       },
       "bug_count": {
        "type": "integer"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "name": {
        "type": "string"
       },
       "org_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "org_name": {
        "type": "string"
       },
       "platform": {
        "type": "string"
       },
)catalogue",
    R"catalogue(       "slug": {
        "type": "string"
       }
      },
      "required": [
       "active_keys",
       "bug_count",
       "created_at",
       "id",
       "name",
       "org_id",
       "org_name",
       "platform",
       "slug"
      ],
      "additionalProperties": true
     }
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "limit",
    "offset",
    "projects",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/projects (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminUsersAnswer": {
   "type": "object",
   "properties": {
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    },
    "users": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "email": {
        "type": "string"
       },
       "email_verified": {
        "type": "boolean"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "last_login": {
        "$ref": "#/components/schemas/DateTime"
       },
       "name": {
        "type": "string"
       },
       "orgs": {
        "type": "array",
        "items": {
         "type": "object",
         "properties": {
          "orgId": {
           "$ref": "#/components/schemas/Uuid"
          },
          "orgName": {
           "type": "string"
          },
          "role": {
           "type": "string"
          }
         },
         "required": [
          "orgId",
          "orgName",
          "role"
         ],
         "additionalProperties": true
        }
       },
       "status": {
        "type": "string"
       }
      },
      "required": [
       "created_at",
       "email",
       "email_verified",
       "id",
       "last_login",
       "name",
       "status"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "limit",
    "offset",
    "total",
    "users"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/users (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminWaitlistAnswer": {
   "type": "object",
   "properties": {
    "entries": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "admin_note": {
        "type": [
         "string",
         "null"
        ]
       },
       "approval_expires_at": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "email": {
        "type": "string"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "name": {
        "type": "string"
       },
       "org_name": {
        "type": "string"
       },
       "status": {
        "type": "string"
       },
       "target_org_id": {
        "type": [
         "string",
         "null"
        ]
       },
       "updated_at": {
        "$ref": "#/components/schemas/DateTime"
       },
       "use_case": {
        "description": "null in every answer seen; the value's type when set is not listed."
       }
      },
      "required": [
       "admin_note",
       "approval_expires_at",
       "created_at",
       "email",
       "id",
       "name",
       "org_name",
       "status",
       "target_org_id",
       "updated_at",
       "use_case"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "entries",
    "limit",
    "offset",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/admin/waitlist (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AgentWorkSymbolsProjectsBuildsFilesAnswer": {
   "type": "object",
   "properties": {
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "symbolFiles": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "applicationId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "buildId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "byteCount": {
        "type": "integer"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "declared": {
        "type": "object",
        "properties": {
         "arch": {
          "type": [
           "string",
           "null"
          ]
         },
         "debugId": {
          "type": [
           "string",
           "null"
          ]
         }
        },
        "required": [
         "arch",
         "debugId"
        ],
        "additionalProperties": true
       },
       "format": {
        "type": [
         "string",
         "null"
        ]
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "name": {
        "type": [
         "string",
         "null"
        ]
       },
       "processedAt": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "projectId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "reason": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "sha256": {
        "type": "string"
       },
       "slices": {
        "type": "array",
        "items": {
         "type": "object",
         "properties": {
          "arch": {
           "type": "string"
          },
          "debugId": {
           "type": "string"
          }
         },
         "required": [
          "arch",
          "debugId"
         ],
         "additionalProperties": true
        }
       },
       "state": {
        "type": "string"
       },
       "usable": {
        "type": "boolean"
       }
      },
      "required": [
       "applicationId",
       "buildId",
       "byteCount",
       "createdAt",
       "declared",
       "format",
       "id",
       "name",
       "processedAt",
       "projectId",
       "reason",
       "sha256",
       "slices",
       "state",
       "usable"
      ],
      "additionalProperties": true
     }
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "limit",
    "offset",
    "symbolFiles",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/agent-work/symbols/projects/:projectId/builds/:buildId/files (fields from the handler in libservice/src/areas/symbols/api/symbols_routes.cpp)."
  },
  "AgentWorkSymbolsProjectsFilesOneAnswer": {
   "type": "object",
   "properties": {
    "symbolFile": {
     "type": "object",
     "properties": {
      "applicationId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "buildId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "byteCount": {
       "type": "integer"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "declared": {
       "type": "object",
       "properties": {
        "arch": {
         "type": [
          "string",
          "null"
         ]
        },
        "debugId": {
         "type": [
          "string",
          "null"
         ]
        }
       },
       "required": [
        "arch",
        "debugId"
       ],
       "additionalProperties": true
      },
      "format": {
       "type": [
        "string",
        "null"
       ]
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "name": {
       "type": [
        "string",
        "null"
       ]
      },
      "processedAt": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "reason": {
       "type": [
        "string",
        "null"
       ]
      },
      "sha256": {
       "type": "string"
      },
      "slices": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "arch": {
          "type": "string"
         },
         "debugId": {
          "type": "string"
         }
        },
        "required": [
         "arch",
         "debugId"
        ],
        "additionalProperties": true
       }
      },
      "state": {
       "type": "string"
      },
      "usable": {
       "type": "boolean"
      }
     },
     "required": [
      "applicationId",
      "buildId",
      "byteCount",
      "createdAt",
      "declared",
      "format",
      "id",
      "name",
      "processedAt",
      "projectId",
      "reason",
      "sha256",
      "slices",
      "state",
      "usable"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "symbolFile"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/agent-work/symbols/projects/:projectId/files/:fileId (fields from the handler in libservice/src/areas/symbols/api/symbols_routes.cpp)."
  },
  "AgentWorkVerificationEnrollmentAnswer": {
   "type": "object",
   "properties": {
    "devices": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/VerificationDevice"
     }
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "runners": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/VerificationRunner"
     }
    }
   },
   "required": [
    "devices",
    "projectId",
    "runners"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/agent-work/verification/enrollment (fields from the handler in ?)."
  },
  "AgentWorkVerificationReceiptsOneAnswer": {
   "type": "object",
   "properties": {
    "receipt": {
     "type": "object",
     "properties": {
      "applicability": {
       "type": "object",
       "properties": {
        "reason": {
         "type": [
          "string",
          "null"
         ]
        },
        "state": {
         "type": "string"
        }
       },
       "required": [
        "reason",
        "state"
       ],
       "additionalProperties": true
      },
      "applicationId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "artifactSha256": {
       "type": "string"
      },
      "buildId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "challengeId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "claimId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "deviceId": {
       "type": [
        "string",
        "null"
       ]
      },
      "evidenceIds": {
       "type": "array"
      },
      "issueId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "measuredAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "receiptId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "runnerId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "runtime": {
       "type": "string"
      },
      "signed": {
       "type": "boolean"
      },
      "status": {
       "type": "string"
      },
      "tests": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "name": {
          "type": "string"
         },
         "outcome": {
          "type": "string"
         }
        },
        "required": [
         "name",
         "outcome"
        ],
        "additionalProperties": true
       }
      },
      "trust": {
       "type": "string"
      }
     },
     "required": [
      "applicability",
      "applicationId",
      "artifactSha256",
      "buildId",
      "challengeId",
      "claimId",
      "createdAt",
      "deviceId",
      "evidenceIds",
      "issueId",
      "measuredAt",
      "projectId",
      "receiptId",
      "runnerId",
      "runtime",
      "signed",
      "status",
      "tests",
      "trust"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "receipt"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/agent-work/verification/receipts/:receiptId (fields from the handler in ?)."
  },
  "AgentWorkVerificationReceiptsEvidenceAnswer": {
   "type": "object",
   "properties": {
    "evidence": {
     "type": "object",
     "properties": {
      "artifacts": {
       "type": "array"
      },
      "contentAvailable": {
       "type": "boolean"
      },
      "issueId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "measuredAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "receiptId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "signed": {
       "type": "boolean"
      },
      "status": {
       "type": "string"
      },
      "submissionSha256": {
       "type": "string"
      },
      "testCount": {
       "type": "integer"
      }
     },
     "required": [
      "artifacts",
      "contentAvailable",
      "issueId",
      "measuredAt",
      "projectId",
      "receiptId",
      "signed",
      "status",
      "submissionSha256",
      "testCount"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "evidence"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/agent-work/verification/receipts/:receiptId/evidence (fields from the handler in ?)."
  },
  "ApplicationsProjectsOneAnswer": {
   "type": "object",
   "properties": {
    "items": {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/Application"
     }
    },
    "nextCursor": {
     "$ref": "#/components/schemas/Cursor"
    }
   },
   "required": [
    "items",
    "nextCursor"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/applications/projects/:projectId (fields from the handler in libservice/src/areas/applications/api/applications_routes.cpp)."
  },
  "ApplicationsProjectsBuildsAnswer": {
   "type": "object",
   "properties": {
    "items": {
     "type": "array"
    },
    "nextCursor": {
     "$ref": "#/components/schemas/Cursor"
    }
   },
   "required": [
    "items",
    "nextCursor"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/applications/projects/:projectId/:applicationId/builds (fields from the handler in ?)."
  },
  "ApplicationsProjectsInstallationsAnswer": {
   "type": "object",
   "properties": {
    "items": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "applicationId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "captureState": {
)catalogue",
    R"catalogue(        "type": "string"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "label": {
        "description": "null in every answer seen; the value's type when set is not listed."
       },
       "projectId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "requestId": {
        "$ref": "#/components/schemas/Uuid"
       }
      },
      "required": [
       "applicationId",
       "captureState",
       "createdAt",
       "id",
       "label",
       "projectId",
       "requestId"
      ],
      "additionalProperties": true
     }
    },
    "nextCursor": {
     "$ref": "#/components/schemas/Cursor"
    }
   },
   "required": [
    "items",
    "nextCursor"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/applications/projects/:projectId/:applicationId/installations (fields from the handler in ?)."
  },
  "ApplicationsProjectsInstallationsCaptureStatusAnswer": {
   "type": "object",
   "properties": {
    "checkedAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "firstCapture": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "acceptedAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "bugId": {
       "type": [
        "string",
        "null"
       ]
      },
      "captureId": {
       "type": "string"
      },
      "captureSource": {
       "type": "string"
      },
      "evidenceAvailability": {
       "type": "string"
      },
      "framework": {
       "type": [
        "string",
        "null"
       ]
      },
      "occurrenceId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "osFamily": {
       "type": [
        "string",
        "null"
       ]
      },
      "platform": {
       "type": "string"
      },
      "runtime": {
       "type": [
        "string",
        "null"
       ]
      },
      "sdkName": {
       "type": "string"
      },
      "sdkVersion": {
       "type": "string"
      }
     },
     "required": [
      "acceptedAt",
      "bugId",
      "captureId",
      "captureSource",
      "evidenceAvailability",
      "framework",
      "occurrenceId",
      "osFamily",
      "platform",
      "runtime",
      "sdkName",
      "sdkVersion"
     ],
     "additionalProperties": true
    },
    "state": {
     "type": "string"
    }
   },
   "required": [
    "checkedAt",
    "firstCapture",
    "state"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/applications/projects/:projectId/:applicationId/installations/:installationId/capture-status (fields from the handler in ?)."
  },
  "BugsVerificationAnswer": {
   "type": "object",
   "properties": {
    "bugId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "receipts": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "applicability": {
        "type": "object",
        "properties": {
         "reason": {
          "description": "null in every answer seen; the value's type when set is not listed."
         },
         "state": {
          "type": "string"
         }
        },
        "required": [
         "reason",
         "state"
        ],
        "additionalProperties": true
       },
       "applicationId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "artifactSha256": {
        "type": "string"
       },
       "buildId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "challengeId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "claimId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "deviceId": {
        "type": [
         "string",
         "null"
        ]
       },
       "evidenceIds": {
        "type": "array"
       },
       "issueId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "measuredAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "projectId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "receiptId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "runnerId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "runtime": {
        "type": "string"
       },
       "signed": {
        "type": "boolean"
       },
       "status": {
        "type": "string"
       },
       "tests": {
        "type": "array",
        "items": {
         "type": "object",
         "properties": {
          "name": {
           "type": "string"
          },
          "outcome": {
           "type": "string"
          }
         },
         "required": [
          "name",
          "outcome"
         ],
         "additionalProperties": true
        }
       },
       "trust": {
        "type": "string"
       }
      },
      "required": [
       "applicability",
       "applicationId",
       "artifactSha256",
       "buildId",
       "challengeId",
       "claimId",
       "createdAt",
       "deviceId",
       "evidenceIds",
       "issueId",
       "measuredAt",
       "projectId",
       "receiptId",
       "runnerId",
       "runtime",
       "signed",
       "status",
       "tests",
       "trust"
      ],
      "additionalProperties": true
     }
    },
    "verification": {
     "type": [
      "object",
      "null"
     ],
     "properties": {
      "promotedAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "promotionId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "reason": {
       "description": "null in every answer seen; the value's type when set is not listed."
      },
      "receiptIds": {
       "type": "array",
       "items": {
        "type": "string"
       }
      },
      "state": {
       "type": "string"
      }
     },
     "required": [
      "promotedAt",
      "promotionId",
      "reason",
      "receiptIds",
      "state"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "bugId",
    "receipts",
    "verification"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/bugs/:id/verification (fields from the handler in libservice/src/areas/verification/api/verification_routes.cpp)."
  },
  "OrgSupportSessionsAnswer": {
   "type": "object",
   "properties": {
    "activity": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "method": {
        "type": "string"
       },
       "path": {
        "type": "string"
       },
       "sessionId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "ts": {
        "$ref": "#/components/schemas/DateTime"
       }
      },
      "required": [
       "method",
       "path",
       "sessionId",
       "ts"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "sessions": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "active": {
        "type": "boolean"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "endedAt": {
        "$ref": "#/components/schemas/NullableDateTime"
       },
       "expiresAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "lastRequestAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "mode": {
        "type": "string"
       },
       "operatorEmail": {
        "type": "string"
       },
       "requests": {
        "type": "integer"
       }
      },
      "required": [
       "active",
       "createdAt",
       "endedAt",
       "expiresAt",
       "id",
       "lastRequestAt",
       "mode",
       "operatorEmail",
       "requests"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "activity",
    "limit",
    "sessions"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/org/support-sessions (fields from the handler in libservice/src/areas/support/api/support_routes.cpp)."
  },
  "SourcemapsProjectsBundlesAnswer": {
   "type": "object",
   "properties": {
    "bundles": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bundleId": {
        "type": [
         "string",
         "null"
        ]
       },
       "byteCount": {
        "type": "integer"
       },
       "checksum": {
        "type": "string"
       },
       "createdAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "dist": {
        "type": [
         "string",
         "null"
        ]
       },
       "fileCount": {
        "type": "integer"
       },
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "projectId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "release": {
        "type": "string"
       },
       "sha256": {
        "type": "string"
       }
      },
      "required": [
       "bundleId",
       "byteCount",
       "checksum",
       "createdAt",
       "dist",
       "fileCount",
       "id",
       "projectId",
       "release",
       "sha256"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "total": {
     "type": "integer"
    }
   },
   "required": [
    "bundles",
    "limit",
    "offset",
    "total"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/sourcemaps/projects/:projectId/bundles (fields from the handler in ?)."
  },
  "SourcemapsProjectsBundlesOneAnswer": {
   "type": "object",
   "properties": {
    "bundle": {
     "type": "object",
     "properties": {
      "bundleId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "byteCount": {
       "type": "integer"
      },
      "checksum": {
       "type": "string"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "dist": {
       "type": [
        "string",
        "null"
       ]
      },
      "fileCount": {
       "type": "integer"
      },
      "files": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "byteCount": {
          "type": "integer"
         },
         "debugId": {
          "$ref": "#/components/schemas/Uuid"
         },
         "sourcemap": {
          "type": [
           "string",
           "null"
          ]
         },
         "type": {
          "type": "string"
         },
         "url": {
          "type": "string"
         },
         "urlPath": {
          "type": "string"
         }
        },
        "required": [
         "byteCount",
         "debugId",
         "sourcemap",
         "type",
         "url",
         "urlPath"
        ],
        "additionalProperties": true
       }
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "release": {
       "type": "string"
      },
      "sha256": {
       "type": "string"
      }
     },
     "required": [
      "bundleId",
      "byteCount",
      "checksum",
      "createdAt",
      "dist",
      "fileCount",
      "files",
      "id",
      "projectId",
      "release",
      "sha256"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "bundle"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/sourcemaps/projects/:projectId/bundles/:bundleId (fields from the handler in ?)."
  },
  "SourcemapsProjectsDebugIdsAnswer": {
   "type": "object",
   "properties": {
    "debugIds": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bundleId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "debugId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "lastUploadAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "types": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "urls": {
        "type": "array",
        "items": {
         "type": "string"
        }
       }
      },
      "required": [
       "bundleId",
       "debugId",
       "lastUploadAt",
       "types",
       "urls"
      ],
      "additionalProperties": true
     }
    },
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    }
   },
   "required": [
    "debugIds",
    "limit",
    "offset"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/sourcemaps/projects/:projectId/debug-ids (fields from the handler in ?)."
  },
  "SourcemapsProjectsReleasesAnswer": {
   "type": "object",
   "properties": {
    "limit": {
     "type": "integer"
    },
    "offset": {
     "type": "integer"
    },
    "releases": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bundleCount": {
        "type": "integer"
       },
       "dist": {
        "type": [
         "string",
         "null"
        ]
       },
       "fileCount": {
        "type": "integer"
       },
       "lastUploadAt": {
        "$ref": "#/components/schemas/DateTime"
       },
       "release": {
        "type": "string"
       }
      },
      "required": [
       "bundleCount",
       "dist",
       "fileCount",
       "lastUploadAt",
       "release"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "limit",
    "offset",
    "releases"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of GET /v1/sourcemaps/projects/:projectId/releases (fields from the handler in ?)."
  },
  "AdminCustomersOneUpdatedAnswer": {
   "type": "object",
   "properties": {
    "customer": {
     "type": "object",
     "properties": {
      "admin_notes": {
       "type": "string"
      },
      "billing_status": {
       "type": "string"
      },
      "contact_email": {
       "type": "string"
      },
      "contact_name": {
       "type": "string"
      },
      "counts": {
       "$ref": "#/components/schemas/CustomerCounts"
      },
      "created_at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "last_activity_at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "last_bug_seen": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "lifecycle_stage": {
       "type": "string"
      },
      "name": {
       "type": "string"
      },
      "plan": {
       "type": "string"
      },
      "slug": {
       "type": "string"
      },
      "use_case": {
       "description": "null in every answer seen; the value's type when set is not listed."
      },
)catalogue",
    R"catalogue(      "waitlist_created_at": {
       "$ref": "#/components/schemas/NullableDateTime"
      },
      "waitlist_id": {
       "type": [
        "string",
        "null"
       ]
      },
      "waitlist_status": {
       "description": "null in every answer seen; the value's type when set is not listed."
      }
     },
     "required": [
      "admin_notes",
      "billing_status",
      "contact_email",
      "contact_name",
      "counts",
      "created_at",
      "id",
      "last_activity_at",
      "last_bug_seen",
      "lifecycle_stage",
      "name",
      "plan",
      "slug",
      "use_case",
      "waitlist_created_at",
      "waitlist_id",
      "waitlist_status"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "customer"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of PATCH /v1/admin/customers/:orgId (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "OrganizationsArtifactbundleAssembleResultAnswer": {
   "type": "object",
   "properties": {
    "detail": {
     "type": "string"
    },
    "missingChunks": {
     "type": "array",
     "items": {
      "type": "string"
     }
    },
    "state": {
     "type": "string"
    }
   },
   "required": [
    "missingChunks",
    "state"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /api/0/organizations/:org/artifactbundle/assemble (fields from the handler in libservice/src/areas/sourcemaps/api/sourcemaps_routes.cpp)."
  },
  "EnvelopeResultAnswer": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    }
   },
   "required": [
    "id"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /api/:projectNumber/envelope (fields from the handler in libservice/src/areas/sentry/api/sentry_routes.cpp)."
  },
  "StoreResultAnswer": {
   "type": "object",
   "properties": {
    "id": {
     "type": "string"
    }
   },
   "required": [
    "id"
   ],
   "additionalProperties": true,
   "description": "The 200 answer of POST /api/:projectNumber/store (fields from the handler in libservice/src/areas/sentry/api/sentry_routes.cpp)."
  },
  "AdminBackfillSignaturesResultAnswer": {
   "type": "object",
   "properties": {
    "done": {
     "type": "boolean"
    },
    "nextCursor": {
     "$ref": "#/components/schemas/Cursor"
    },
    "scanned": {
     "type": "integer"
    },
    "skipped": {
     "type": "integer"
    },
    "unchanged": {
     "type": "integer"
    },
    "updated": {
     "type": "integer"
    }
   },
   "required": [
    "done",
    "nextCursor",
    "scanned",
    "skipped",
    "unchanged",
    "updated"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/backfill-signatures (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminCustomersResultAnswer": {
   "type": "object",
   "properties": {
    "customer": {
     "type": "object",
     "properties": {
      "billing_status": {
       "type": "string"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "lifecycle_stage": {
       "type": "string"
      },
      "name": {
       "type": "string"
      },
      "plan": {
       "type": "string"
      },
      "slug": {
       "type": "string"
      }
     },
     "required": [
      "billing_status",
      "id",
      "lifecycle_stage",
      "name",
      "plan",
      "slug"
     ],
     "additionalProperties": true
    },
    "project": {
     "type": "object",
     "properties": {
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "name": {
       "type": "string"
      },
      "slug": {
       "type": "string"
      }
     },
     "required": [
      "id",
      "name",
      "slug"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "customer",
    "project"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/customers (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminCustomersTeamResultAnswer": {
   "type": "object",
   "properties": {
    "role": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    },
    "userId": {
     "$ref": "#/components/schemas/Uuid"
    }
   },
   "required": [
    "role",
    "success",
    "userId"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/customers/:orgId/team (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminGdprDeleteOrgResultAnswer": {
   "type": "object",
   "properties": {
    "deleted": {
     "type": "object",
     "properties": {
      "ai_usage": {
       "type": "integer"
      },
      "api_keys": {
       "type": "integer"
      },
      "bug_comments": {
       "type": "integer"
      },
      "bug_events": {
       "type": "integer"
      },
      "bug_reporters": {
       "type": "integer"
      },
      "bug_reports": {
       "type": "integer"
      },
      "bug_status_history": {
       "type": "integer"
      },
      "bug_watchers": {
       "type": "integer"
      },
      "customer_profiles": {
       "type": "integer"
      },
      "end_users": {
       "type": "integer"
      },
      "integration_deliveries": {
       "type": "integer"
      },
      "integrations": {
       "type": "integer"
      },
      "notification_preferences": {
       "type": "integer"
      },
      "notifications": {
       "type": "integer"
      },
      "organizations": {
       "type": "integer"
      },
      "projects": {
       "type": "integer"
      },
      "team_memberships": {
       "type": "integer"
      },
      "usage_counters": {
       "type": "integer"
      },
      "waitlist_entries": {
       "type": "integer"
      }
     },
     "required": [
      "ai_usage",
      "api_keys",
      "bug_comments",
      "bug_events",
      "bug_reporters",
      "bug_reports",
      "bug_status_history",
      "bug_watchers",
      "customer_profiles",
      "end_users",
      "integration_deliveries",
      "integrations",
      "notification_preferences",
      "notifications",
      "organizations",
      "projects",
      "team_memberships",
      "usage_counters",
      "waitlist_entries"
     ],
     "additionalProperties": true
    },
    "orgId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "orgName": {
     "type": "string"
    },
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "deleted",
    "orgId",
    "orgName",
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/gdpr/delete-org (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminSupportSessionResultAnswer": {
   "type": "object",
   "properties": {
    "session": {
     "type": "object",
     "properties": {
      "expiresAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "mode": {
       "type": "string"
      },
      "orgId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "orgName": {
       "type": "string"
      },
      "orgSlug": {
       "type": "string"
      }
     },
     "required": [
      "expiresAt",
      "id",
      "mode",
      "orgId",
      "orgName",
      "orgSlug"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "session"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/support/session (fields from the handler in libservice/src/areas/support/api/support_routes.cpp)."
  },
  "AdminWaitlistApproveResultAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/waitlist/:id/approve (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminWaitlistRejectResultAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/waitlist/:id/reject (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AdminWaitlistResendResultAnswer": {
   "type": "object",
   "properties": {
    "success": {
     "type": "boolean"
    }
   },
   "required": [
    "success"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/admin/waitlist/:id/resend (fields from the handler in libservice/src/areas/admin/api/admin_routes.cpp)."
  },
  "AgentWorkVerificationChallengesResultAnswer": {
   "type": "object",
   "properties": {
    "challenge": {
     "type": "object",
     "properties": {
      "challengeId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "claimId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "expiresAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "fencingToken": {
       "type": "string"
      },
      "generation": {
       "type": "string"
      },
      "issueId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "nonce": {
       "type": "string"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      }
     },
     "required": [
      "challengeId",
      "claimId",
      "createdAt",
      "expiresAt",
      "fencingToken",
      "generation",
      "issueId",
      "nonce",
      "projectId"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "challenge"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/agent-work/verification/challenges (fields from the handler in ?)."
  },
  "AgentWorkVerificationDevicesResultAnswer": {
   "type": "object",
   "properties": {
    "device": {
     "$ref": "#/components/schemas/VerificationDevice"
    }
   },
   "required": [
    "device"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/agent-work/verification/devices (fields from the handler in ?)."
  },
  "AgentWorkVerificationDevicesRevokeResultAnswer": {
   "type": "object",
   "properties": {
    "device": {
     "type": "object",
     "properties": {
      "applicationId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "deviceIdentifierSha256": {
       "type": "string"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "installationId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "name": {
       "type": "string"
      },
      "osVersion": {
       "type": "string"
      },
      "physicalDeviceConfirmed": {
       "type": "boolean"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "revokedAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "runnerId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "runtime": {
       "type": "string"
      },
      "status": {
       "type": "string"
      }
     },
     "required": [
      "applicationId",
      "createdAt",
      "deviceIdentifierSha256",
      "id",
      "installationId",
      "name",
      "osVersion",
      "physicalDeviceConfirmed",
      "projectId",
      "revokedAt",
      "runnerId",
      "runtime",
      "status"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "device"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/agent-work/verification/devices/revoke (fields from the handler in ?)."
  },
  "AgentWorkVerificationPromoteResultAnswer": {
   "type": "object",
   "properties": {
    "claim": {
     "type": "object",
     "properties": {
      "claimId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "expiresAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "fencingToken": {
       "type": "string"
      },
      "generation": {
       "type": "string"
      },
      "issueId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "status": {
       "type": "string"
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
     "additionalProperties": true
    },
    "promotion": {
     "type": "object",
     "properties": {
      "coverage": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "applicationId": {
          "$ref": "#/components/schemas/Uuid"
         },
         "receiptId": {
          "$ref": "#/components/schemas/Uuid"
         },
         "runtime": {
          "type": "string"
         }
        },
        "required": [
         "applicationId",
         "receiptId",
         "runtime"
        ],
        "additionalProperties": true
       }
      },
      "issueId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "promotedAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "promotionId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "receiptIds": {
       "type": "array",
       "items": {
        "type": "string"
       }
      },
      "state": {
       "type": "string"
      },
      "targetBuilds": {
       "type": "array",
       "items": {
        "type": "string"
       }
      }
     },
     "required": [
      "coverage",
      "issueId",
      "projectId",
      "promotedAt",
      "promotionId",
      "receiptIds",
      "state",
      "targetBuilds"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "claim",
    "promotion"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/agent-work/verification/promote (fields from the handler in ?)."
  },
  "AgentWorkVerificationReceiptsResultAnswer": {
   "type": "object",
   "properties": {
    "receipt": {
     "type": "object",
     "properties": {
      "applicability": {
       "type": "object",
       "properties": {
        "reason": {
         "description": "null in every answer seen; the value's type when set is not listed."
        },
        "state": {
         "type": "string"
        }
       },
       "required": [
        "reason",
        "state"
       ],
       "additionalProperties": true
      },
      "applicationId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "artifactSha256": {
       "type": "string"
      },
      "buildId": {
       "$ref": "#/components/schemas/Uuid"
      },
)catalogue",
    R"catalogue(      "challengeId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "claimId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "deviceId": {
       "type": [
        "string",
        "null"
       ]
      },
      "evidenceIds": {
       "type": "array"
      },
      "issueId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "measuredAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "receiptId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "runnerId": {
       "type": [
        "string",
        "null"
       ]
      },
      "runtime": {
       "type": "string"
      },
      "signed": {
       "type": "boolean"
      },
      "status": {
       "type": "string"
      },
      "tests": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "name": {
          "type": "string"
         },
         "outcome": {
          "type": "string"
         }
        },
        "required": [
         "name",
         "outcome"
        ],
        "additionalProperties": true
       }
      },
      "trust": {
       "type": [
        "string",
        "null"
       ]
      }
     },
     "required": [
      "applicability",
      "applicationId",
      "artifactSha256",
      "buildId",
      "challengeId",
      "claimId",
      "createdAt",
      "deviceId",
      "evidenceIds",
      "issueId",
      "measuredAt",
      "projectId",
      "receiptId",
      "runnerId",
      "runtime",
      "signed",
      "status",
      "tests",
      "trust"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "receipt"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/agent-work/verification/receipts (fields from the handler in ?)."
  },
  "AgentWorkVerificationRunnersResultAnswer": {
   "type": "object",
   "properties": {
    "runner": {
     "$ref": "#/components/schemas/VerificationRunner"
    }
   },
   "required": [
    "runner"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/agent-work/verification/runners (fields from the handler in ?)."
  },
  "AgentWorkVerificationRunnersRevokeResultAnswer": {
   "type": "object",
   "properties": {
    "runner": {
     "type": "object",
     "properties": {
      "allowedRuntimes": {
       "type": "array",
       "items": {
        "type": "string"
       }
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "name": {
       "type": "string"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "publicKeyFingerprint": {
       "type": "string"
      },
      "publicKeyPem": {
       "type": "string"
      },
      "revokedAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "status": {
       "type": "string"
      },
      "trustLevel": {
       "type": "string"
      }
     },
     "required": [
      "allowedRuntimes",
      "createdAt",
      "id",
      "name",
      "projectId",
      "publicKeyFingerprint",
      "publicKeyPem",
      "revokedAt",
      "status",
      "trustLevel"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "runner"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/agent-work/verification/runners/revoke (fields from the handler in ?)."
  },
  "ApplicationsProjectsOneResultAnswer": {
   "type": "object",
   "properties": {
    "application": {
     "$ref": "#/components/schemas/Application"
    }
   },
   "required": [
    "application"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/applications/projects/:projectId (fields from the handler in libservice/src/areas/applications/api/applications_routes.cpp)."
  },
  "ApplicationsProjectsBuildsResultAnswer": {
   "type": "object",
   "properties": {
    "build": {
     "type": "object",
     "properties": {
      "applicationId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "artifactSha256": {
       "type": "string"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "requestId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "sourceRevision": {
       "type": "string"
      }
     },
     "required": [
      "applicationId",
      "artifactSha256",
      "createdAt",
      "id",
      "projectId",
      "requestId",
      "sourceRevision"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "build"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/applications/projects/:projectId/:applicationId/builds (fields from the handler in ?)."
  },
  "ApplicationsProjectsInstallationsResultAnswer": {
   "type": "object",
   "properties": {
    "installation": {
     "type": "object",
     "properties": {
      "applicationId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "captureState": {
       "type": "string"
      },
      "createdAt": {
       "$ref": "#/components/schemas/DateTime"
      },
      "id": {
       "$ref": "#/components/schemas/Uuid"
      },
      "label": {
       "type": [
        "string",
        "null"
       ]
      },
      "projectId": {
       "$ref": "#/components/schemas/Uuid"
      },
      "requestId": {
       "$ref": "#/components/schemas/Uuid"
      }
     },
     "required": [
      "applicationId",
      "captureState",
      "createdAt",
      "id",
      "label",
      "projectId",
      "requestId"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "installation"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/applications/projects/:projectId/:applicationId/installations (fields from the handler in ?)."
  },
  "BugsAnalyzeResultAnswer": {
   "type": "object",
   "properties": {
    "analysis": {
     "type": "object",
     "additionalProperties": true,
     "description": "The model's analysis as it answered it (asked for rootCause, causalChain, severity, pattern, suggestedFix, confidence; triage/app/analysis.cpp); passed through unchecked."
    },
    "stats": {
     "type": "object",
     "properties": {
      "anomalies": {
       "type": "array"
      },
      "console": {
       "type": "integer"
      },
      "duration_seconds": {
       "type": "integer"
      },
      "errors": {
       "type": "integer"
      },
      "network": {
       "type": "integer"
      },
      "total_events": {
       "type": "integer"
      },
      "user_actions": {
       "type": "integer"
      }
     },
     "required": [
      "anomalies",
      "console",
      "duration_seconds",
      "errors",
      "network",
      "total_events",
      "user_actions"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "analysis",
    "stats"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/bugs/:id/analyze (fields from the handler in libservice/src/areas/triage/api/triage_routes.cpp)."
  },
  "BugsEventsAiResultAnswer": {
   "type": "object",
   "properties": {
    "assessment": {
     "type": "string"
    },
    "mode": {
     "type": "string"
    }
   },
   "required": [
    "assessment",
    "mode"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/bugs/:id/events/:eventId/ai (fields from the handler in libservice/src/areas/triage/api/triage_routes.cpp)."
  },
  "BugsAiSummaryResultAnswer": {
   "type": "object",
   "properties": {
    "description": {
     "type": "string"
    },
    "model": {
     "type": "string"
    },
    "provider": {
     "type": "string"
    },
    "severity": {
     "type": "string"
    },
    "title": {
     "type": "string"
    },
    "truncated": {
     "type": "boolean"
    }
   },
   "required": [
    "description",
    "model",
    "provider",
    "severity",
    "title",
    "truncated"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/bugs/ai-summary (fields from the handler in libservice/src/areas/ai/api/ai_routes.cpp)."
  },
  "IngestAiSummaryResultAnswer": {
   "type": "object",
   "properties": {
    "description": {
     "type": "string"
    },
    "model": {
     "type": "string"
    },
    "provider": {
     "type": "string"
    },
    "severity": {
     "type": "string"
    },
    "title": {
     "type": "string"
    },
    "truncated": {
     "type": "boolean"
    }
   },
   "required": [
    "description",
    "model",
    "provider",
    "severity",
    "title",
    "truncated"
   ],
   "additionalProperties": true,
   "description": "The 2XX answer of POST /v1/ingest/ai-summary (fields from the handler in libservice/src/areas/ai/api/ai_routes.cpp)."
  },
  "CustomerCounts": {
   "additionalProperties": true,
   "properties": {
    "active_keys": {
     "type": "integer"
    },
    "bugs": {
     "type": "integer"
    },
    "members": {
     "type": "integer"
    },
    "open_bugs": {
     "type": "integer"
    },
    "projects": {
     "type": "integer"
    }
   },
   "required": [
    "active_keys",
    "bugs",
    "members",
    "open_bugs",
    "projects"
   ],
   "type": "object"
  },
  "VerificationDevice": {
   "additionalProperties": true,
   "properties": {
    "applicationId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "createdAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "deviceIdentifierSha256": {
     "type": "string"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "installationId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "name": {
     "type": "string"
    },
    "osVersion": {
     "type": "string"
    },
    "physicalDeviceConfirmed": {
     "type": "boolean"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "revokedAt": {
     "$ref": "#/components/schemas/NullableDateTime"
    },
    "runnerId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "runtime": {
     "type": "string"
    },
    "status": {
     "type": "string"
    }
   },
   "required": [
    "applicationId",
    "createdAt",
    "deviceIdentifierSha256",
    "id",
    "installationId",
    "name",
    "osVersion",
    "physicalDeviceConfirmed",
    "projectId",
    "revokedAt",
    "runnerId",
    "runtime",
    "status"
   ],
   "type": "object"
  },
  "VerificationRunner": {
   "additionalProperties": true,
   "properties": {
    "allowedRuntimes": {
     "items": {
      "type": "string"
     },
     "type": "array"
    },
    "createdAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "name": {
     "type": "string"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "publicKeyFingerprint": {
     "type": "string"
    },
    "publicKeyPem": {
     "type": "string"
    },
    "revokedAt": {
     "$ref": "#/components/schemas/NullableDateTime"
    },
    "status": {
     "type": "string"
    },
    "trustLevel": {
     "type": "string"
    }
   },
   "required": [
    "allowedRuntimes",
    "createdAt",
    "id",
    "name",
    "projectId",
    "publicKeyFingerprint",
    "publicKeyPem",
    "revokedAt",
    "status",
    "trustLevel"
   ],
   "type": "object"
  },
  "Application": {
   "additionalProperties": true,
   "properties": {
    "createdAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "id": {
     "$ref": "#/components/schemas/Uuid"
    },
    "identifier": {
     "type": "string"
    },
    "name": {
     "type": "string"
    },
    "projectId": {
     "$ref": "#/components/schemas/Uuid"
    },
    "requestId": {
     "$ref": "#/components/schemas/Uuid"
    }
   },
   "required": [
    "createdAt",
    "id",
    "identifier",
    "name",
    "projectId",
    "requestId"
   ],
   "type": "object"
  },
  "OpenApiDocument": {
   "type": "object",
   "properties": {
    "openapi": {
     "const": "3.1.0"
    },
    "info": {
     "type": "object",
     "properties": {
      "title": {
       "type": "string"
      },
      "version": {
       "type": "string"
      }
     },
     "required": [
      "title",
      "version"
     ],
     "additionalProperties": true
    },
    "jsonSchemaDialect": {
     "type": "string"
    },
    "servers": {
     "type": "array",
     "items": {
      "type": "object",
      "additionalProperties": true
     }
    },
    "tags": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "name": {
        "type": "string"
       },
       "description": {
        "type": "string"
       }
      },
      "required": [
       "name"
      ],
      "additionalProperties": true
     }
    },
    "paths": {
     "type": "object",
     "additionalProperties": {
      "type": "object",
      "additionalProperties": true
     }
    },
    "components": {
     "type": "object",
     "additionalProperties": true
    }
   },
   "required": [
    "openapi",
    "info",
    "paths",
    "components"
   ],
   "additionalProperties": true,
   "description": "This document (OpenAPI 3.1)."
  },
  "AccountDataExport": {
   "type": "object",
   "properties": {
    "exportedAt": {
     "$ref": "#/components/schemas/DateTime"
    },
    "user": {
     "type": "object",
     "properties": {
      "id": {
       "$ref": "#/components/schemas/Uuid"
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
      "email_verified": {
       "type": "boolean"
      },
      "status": {
       "type": "string"
      },
      "created_at": {
       "$ref": "#/components/schemas/DateTime"
      },
      "last_login_at": {
       "$ref": "#/components/schemas/NullableDateTime"
      }
     },
     "required": [
      "avatar_url",
      "created_at",
      "email",
      "email_verified",
      "id",
      "last_login_at",
      "name",
      "status"
     ],
     "additionalProperties": true
    },
    "memberships": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "orgId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "orgName": {
        "type": "string"
       },
       "role": {
        "type": "string"
       },
       "joinedAt": {
        "$ref": "#/components/schemas/DateTime"
       }
      },
      "required": [
       "joinedAt",
       "orgId",
       "orgName",
       "role"
      ],
      "additionalProperties": true
     }
    },
)catalogue",
    R"catalogue(    "comments": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "bug_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "org_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "content": {
        "type": "string"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       }
      },
      "required": [
       "bug_id",
       "content",
       "created_at",
       "id",
       "org_id"
      ],
      "additionalProperties": true
     }
    },
    "notifications": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "org_id": {
        "$ref": "#/components/schemas/Uuid"
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
       "read": {
        "type": "boolean"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       }
      },
      "required": [
       "body",
       "bug_id",
       "created_at",
       "id",
       "org_id",
       "read",
       "title",
       "type"
      ],
      "additionalProperties": true
     }
    },
    "notificationPreferences": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "orgId": {
        "$ref": "#/components/schemas/Uuid"
       },
       "emailLevel": {
        "type": "string"
       },
       "chatEnabled": {
        "type": "boolean"
       },
       "chatWebhook": {
        "type": [
         "string",
         "null"
        ]
       },
       "inAppEnabled": {
        "type": "boolean"
       },
       "digestFreq": {
        "type": "string"
       },
       "updatedAt": {
        "$ref": "#/components/schemas/DateTime"
       }
      },
      "required": [
       "chatEnabled",
       "chatWebhook",
       "digestFreq",
       "emailLevel",
       "inAppEnabled",
       "orgId",
       "updatedAt"
      ],
      "additionalProperties": true
     }
    },
    "watching": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "bug_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "org_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "since": {
        "$ref": "#/components/schemas/DateTime"
       }
      },
      "required": [
       "bug_id",
       "org_id",
       "since"
      ],
      "additionalProperties": true
     }
    },
    "assignedBugs": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "org_id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "title": {
        "type": "string"
       },
       "status": {
        "type": "string"
       }
      },
      "required": [
       "id",
       "org_id",
       "status",
       "title"
      ],
      "additionalProperties": true
     }
    }
   },
   "required": [
    "assignedBugs",
    "comments",
    "exportedAt",
    "memberships",
    "notificationPreferences",
    "notifications",
    "user",
    "watching"
   ],
   "additionalProperties": true,
   "description": "A user's data (GET /v1/auth/data-export/{token}, an attachment; accounts_routes.cpp DownloadDataExport)."
  },
  "JsonRpcResponse": {
   "type": "object",
   "properties": {
    "jsonrpc": {
     "const": "2.0"
    },
    "id": {
     "type": [
      "string",
      "integer",
      "null"
     ]
    },
    "result": {
     "description": "The method's result (initialize, tools/list, tools/call, ...)."
    },
    "error": {
     "type": "object",
     "properties": {
      "code": {
       "type": "integer"
      },
      "message": {
       "type": "string"
      },
      "data": {}
     },
     "required": [
      "code",
      "message"
     ],
     "additionalProperties": true
    }
   },
   "required": [
    "jsonrpc",
    "id"
   ],
   "additionalProperties": false,
   "description": "One JSON-RPC 2.0 answer: result or error."
  },
  "McpAnswer": {
   "anyOf": [
    {
     "$ref": "#/components/schemas/JsonRpcResponse"
    },
    {
     "type": "array",
     "items": {
      "$ref": "#/components/schemas/JsonRpcResponse"
     },
     "description": "The answers of a batch, one per request (notifications get none)."
    }
   ],
   "description": "POST /v1/mcp: the answer of one message, or of a batch."
  },
  "BugExport": {
   "type": "object",
   "properties": {
    "bugs": {
     "type": "array",
     "items": {
      "type": "object",
      "properties": {
       "id": {
        "$ref": "#/components/schemas/Uuid"
       },
       "title": {
        "type": "string"
       },
       "severity": {
        "type": "string"
       },
       "status": {
        "type": "string"
       },
       "report_count": {
        "type": "integer"
       },
       "url": {
        "type": "string"
       },
       "first_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "last_seen": {
        "$ref": "#/components/schemas/DateTime"
       },
       "created_at": {
        "$ref": "#/components/schemas/DateTime"
       }
      },
      "additionalProperties": false,
      "required": [
       "created_at",
       "first_seen",
       "id",
       "last_seen",
       "report_count",
       "severity",
       "status",
       "title",
       "url"
      ]
     }
    },
    "count": {
     "type": "integer"
    },
    "truncated": {
     "type": "boolean",
     "description": "More bugs matched than ?limit= allowed."
    },
    "deliveryFeed": {
     "type": "string",
     "description": "The delivery feed the export was scoped to (all, ...)."
    }
   },
   "required": [
    "bugs",
    "count",
    "deliveryFeed",
    "truncated"
   ],
   "additionalProperties": false,
   "description": "GET /v1/bugs/export?format=json (bugs_insight_routes.cpp ExportStream); the CSV form has the same columns."
  }
 },
 "routes": {
  "DELETE /v1/admin/support/session/:id": {
   "tag": "admin",
   "summary": "End a support session",
   "responses": {
    "200": "AdminSupportSessionOneDeletedAnswer"
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
    "200": "BugsOneDeletedAnswer"
   }
  },
  "DELETE /v1/bugs/:id/watch": {
   "tag": "triage",
   "summary": "Stop watching a bug",
   "responses": {
    "200": "BugsWatchDeletedAnswer"
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
    "200": "TicketsOneDeletedAnswer"
   }
  },
  "GET /api/0/organizations/:org/chunk-upload": {
   "tag": "sourcemaps",
   "summary": "sentry-cli chunk upload options",
   "responses": {
    "200": "OrganizationsChunkUploadAnswer"
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
    "200": "AdminActivityAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/ai-usage": {
   "tag": "admin",
   "summary": "Superadmin: ai-usage",
   "responses": {
    "200": "AdminAiUsageAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/api-key-stats": {
   "tag": "admin",
   "summary": "Superadmin: api-key-stats",
   "responses": {
    "200": "AdminApiKeyStatsAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/api-keys": {
   "tag": "admin",
   "summary": "Superadmin: api-keys",
   "responses": {
    "200": "AdminApiKeysAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/customers": {
   "tag": "admin",
   "summary": "Superadmin: customers",
   "responses": {
    "200": "AdminCustomersAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/customers/:orgId": {
   "tag": "admin",
   "summary": "Superadmin: customers/orgId",
   "responses": {
    "200": "AdminCustomersOneAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/db/tables": {
   "tag": "admin",
   "summary": "Superadmin: db/tables",
   "responses": {
    "200": "AdminDbTablesAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/db/tables/:table": {
   "tag": "admin",
   "summary": "Superadmin: db/tables/table",
   "responses": {
    "200": "AdminDbTablesOneAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/organizations": {
   "tag": "admin",
   "summary": "Superadmin: organizations",
   "responses": {
    "200": "AdminOrganizationsAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/overview": {
   "tag": "admin",
   "summary": "Superadmin: overview",
   "responses": {
    "200": "AdminOverviewAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/projects": {
   "tag": "admin",
   "summary": "Superadmin: projects",
   "responses": {
    "200": "AdminProjectsAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/users": {
   "tag": "admin",
   "summary": "Superadmin: users",
   "responses": {
    "200": "AdminUsersAnswer"
   },
   "security": "superadmin"
  },
  "GET /v1/admin/waitlist": {
   "tag": "admin",
   "summary": "Superadmin: waitlist",
   "responses": {
    "200": "AdminWaitlistAnswer"
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
    "200": "AgentWorkSymbolsProjectsBuildsFilesAnswer"
   }
  },
  "GET /v1/agent-work/symbols/projects/:projectId/files/:fileId": {
   "tag": "symbols",
   "summary": "One symbol file",
   "responses": {
    "200": "AgentWorkSymbolsProjectsFilesOneAnswer"
   }
  },
  "GET /v1/agent-work/verification/enrollment": {
   "tag": "verification",
   "summary": "Enrolled runners and devices",
   "responses": {
    "200": "AgentWorkVerificationEnrollmentAnswer"
   }
  },
  "GET /v1/agent-work/verification/receipts/:receiptId": {
   "tag": "verification",
   "summary": "One receipt",
   "responses": {
    "200": "AgentWorkVerificationReceiptsOneAnswer"
   }
  },
  "GET /v1/agent-work/verification/receipts/:receiptId/evidence": {
   "tag": "verification",
   "summary": "Evidence of one receipt",
   "responses": {
    "200": "AgentWorkVerificationReceiptsEvidenceAnswer"
   }
  },
  "GET /v1/alerts/digests": {
   "tag": "integrations",
   "summary": "Alert digest batches",
   "responses": {
    "200": "AlertsDigestsAnswer"
   },
   "optional": true
  },
  "GET /v1/alerts/overview": {
   "tag": "integrations",
   "summary": "Alert overview",
   "responses": {
    "200": "AlertsOverviewAnswer"
   }
  },
  "GET /v1/alerts/policy": {
   "tag": "integrations",
   "summary": "Alert policy",
   "responses": {
    "200": "AlertsPolicyAnswer"
   }
  },
  "GET /v1/applications/projects/:projectId": {
   "tag": "applications",
   "summary": "Applications of a project",
   "responses": {
    "200": "ApplicationsProjectsOneAnswer"
   }
  },
  "GET /v1/applications/projects/:projectId/:applicationId/builds": {
   "tag": "applications",
   "summary": "Builds of an application",
   "responses": {
    "200": "ApplicationsProjectsBuildsAnswer"
   }
  },
  "GET /v1/applications/projects/:projectId/:applicationId/installations": {
   "tag": "applications",
   "summary": "Installations of an application",
   "responses": {
    "200": "ApplicationsProjectsInstallationsAnswer"
   }
  },
  "GET /v1/applications/projects/:projectId/:applicationId/installations/:installationId/capture-status": {
   "tag": "applications",
   "summary": "First capture of an installation",
   "responses": {
    "200": "ApplicationsProjectsInstallationsCaptureStatusAnswer"
   }
  },
  "GET /v1/auth/agent-context": {
   "tag": "agents",
   "summary": "The agent token's own context",
   "responses": {
    "200": "AuthAgentContextAnswer"
   }
  },
  "GET /v1/auth/approval/:token": {
   "tag": "accounts",
   "summary": "Read a waitlist approval",
   "responses": {
    "200": "AuthApprovalOneAnswer"
   }
  },
  "GET /v1/auth/data-export/:token": {
   "tag": "accounts",
   "summary": "Download a data export",
   "responses": {
    "200": "AccountDataExport"
   }
  },
  "GET /v1/auth/me": {
   "tag": "accounts",
   "summary": "The caller, with organizations",
   "responses": {
    "200": "AuthMeAnswer"
   }
  },
  "GET /v1/auth/whats-new": {
   "tag": "accounts",
   "summary": "Product news for the caller",
   "responses": {
    "200": "AuthWhatsNewAnswer"
   }
  },
  "GET /v1/billing/budget": {
   "tag": "operations",
   "summary": "Monthly budget",
   "responses": {
    "200": "BillingBudgetAnswer"
   }
  },
  "GET /v1/billing/subscription": {
   "tag": "operations",
   "summary": "Plan and subscription",
   "responses": {
    "200": "BillingSubscriptionAnswer"
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
)catalogue",
    R"catalogue(   "summary": "One bug with reporters, recent occurrences and verification",
   "responses": {
    "200": "BugDetail"
   }
  },
  "GET /v1/bugs/:id/agent-status": {
   "tag": "agents",
   "summary": "Agent hand-off status of a bug",
   "responses": {
    "200": "BugsAgentStatusAnswer"
   }
  },
  "GET /v1/bugs/:id/anomalies": {
   "tag": "bugs",
   "summary": "Anomalies of a bug",
   "responses": {
    "200": "BugsAnomaliesAnswer"
   }
  },
  "GET /v1/bugs/:id/comments": {
   "tag": "bugs",
   "summary": "Comments on a bug",
   "responses": {
    "200": "BugsCommentsAnswer"
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
    "200": "BugsHistoryAnswer"
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
    "200": "BugsSimilarAnswer"
   }
  },
  "GET /v1/bugs/:id/users": {
   "tag": "bugs",
   "summary": "Affected end users of a bug",
   "responses": {
    "200": "BugsUsersAnswer"
   }
  },
  "GET /v1/bugs/:id/verification": {
   "tag": "verification",
   "summary": "Verification state of a bug",
   "responses": {
    "200": "BugsVerificationAnswer"
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
    "200": "#csv:BugExport"
   }
  },
  "GET /v1/bugs/groups": {
   "tag": "bugs",
   "summary": "Grouped bugs",
   "responses": {
    "200": "BugsGroupsAnswer"
   }
  },
  "GET /v1/bugs/groups/:groupKey/instances": {
   "tag": "bugs",
   "summary": "Bugs of one group",
   "responses": {
    "200": "BugsGroupsInstancesAnswer"
   },
   "errors": [
    "409"
   ]
  },
  "GET /v1/bugs/live": {
   "tag": "bugs",
   "summary": "Live bug feed",
   "responses": {
    "200": "BugsLiveAnswer"
   }
  },
  "GET /v1/bugs/presence": {
   "tag": "capture",
   "summary": "Who is present",
   "responses": {
    "200": "BugsPresenceAnswer"
   }
  },
  "GET /v1/bugs/recommended": {
   "tag": "bugs",
   "summary": "Recommended bugs",
   "responses": {
    "200": "BugsRecommendedAnswer"
   }
  },
  "GET /v1/bugs/reporters/:email/bugs": {
   "tag": "bugs",
   "summary": "Bugs of one reporter",
   "responses": {
    "200": "BugsReportersBugsAnswer"
   }
  },
  "GET /v1/bugs/search": {
   "tag": "bugs",
   "summary": "Search bugs",
   "responses": {
    "200": "BugsSearchAnswer"
   }
  },
  "GET /v1/bugs/stats": {
   "tag": "bugs",
   "summary": "Bug statistics",
   "responses": {
    "200": "BugsStatsAnswer"
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
    "200": "EndUsersAnswer"
   }
  },
  "GET /v1/end-users/:userKey/timeline": {
   "tag": "bugs",
   "summary": "Timeline of one end user",
   "responses": {
    "200": "EndUsersTimelineAnswer"
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
    "200": "OpenApiDocument"
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
    "200": "OrgSupportSessionsAnswer"
   }
  },
  "GET /v1/org/usage": {
   "tag": "operations",
   "summary": "Usage of the organization",
   "responses": {
    "200": "OrgUsageAnswer"
   }
  },
  "GET /v1/portfolio/overview": {
   "tag": "operations",
   "summary": "Every organization of the caller with its figures",
   "responses": {
    "200": "PortfolioOverviewAnswer"
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
    "200": "ProjectsAgentNotificationsAnswer"
   }
  },
  "GET /v1/projects/:id/agent-settings": {
   "tag": "agents",
   "summary": "Agent settings of a project",
   "responses": {
    "200": "ProjectsAgentSettingsAnswer"
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
    "200": "ProjectsScrubbingAnswer"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/bundles": {
   "tag": "sourcemaps",
   "summary": "Source map bundles",
   "responses": {
    "200": "SourcemapsProjectsBundlesAnswer"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/bundles/:bundleId": {
   "tag": "sourcemaps",
   "summary": "One bundle",
   "responses": {
    "200": "SourcemapsProjectsBundlesOneAnswer"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/debug-ids": {
   "tag": "sourcemaps",
   "summary": "Debug ids",
   "responses": {
    "200": "SourcemapsProjectsDebugIdsAnswer"
   }
  },
  "GET /v1/sourcemaps/projects/:projectId/releases": {
   "tag": "sourcemaps",
   "summary": "Releases with source maps",
   "responses": {
    "200": "SourcemapsProjectsReleasesAnswer"
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
    "200": "TeamNotificationsAnswer"
   }
  },
  "GET /v1/team/activity": {
   "tag": "team",
   "summary": "Recent team activity",
   "responses": {
    "200": "TeamActivityAnswer"
   }
  },
  "GET /v1/tickets": {
   "tag": "tickets",
   "summary": "Tickets",
   "responses": {
    "200": "TicketsAnswer"
   }
  },
  "GET /v1/tickets/:id": {
   "tag": "tickets",
   "summary": "One ticket",
   "responses": {
    "200": "TicketsOneAnswer"
   }
  },
  "PATCH /v1/admin/customers/:orgId": {
   "tag": "admin",
   "summary": "Superadmin: customers/orgId",
   "responses": {
    "200": "AdminCustomersOneUpdatedAnswer"
   },
   "security": "superadmin",
   "request": "AdminCustomerUpdateRequest",
   "requestOptional": true
  },
  "PATCH /v1/bugs/:id": {
   "tag": "triage",
   "summary": "Update a bug (status, severity, assignee)",
   "responses": {
    "200": "BugsOneUpdatedAnswer"
   },
   "request": "BugPatchRequest"
  },
  "PATCH /v1/bugs/bulk": {
   "tag": "triage",
   "summary": "Update many bugs",
   "responses": {
    "200": "BugsBulkUpdatedAnswer"
   },
   "request": "BugBulkPatchRequest"
  },
  "PATCH /v1/integrations/:id": {
   "tag": "integrations",
   "summary": "Change an integration",
   "responses": {
    "200": "Integration"
   },
   "request": "IntegrationPatchRequest"
  },
  "PATCH /v1/org/agent-pats/:id": {
   "tag": "agents",
   "summary": "Change an agent token",
   "responses": {
    "200": "AgentTokenOne"
   },
   "request": "AgentTokenPatchRequest"
  },
  "PATCH /v1/team/:userId": {
   "tag": "team",
   "summary": "Change a member's role",
   "responses": {
    "200": "TeamOneUpdatedAnswer"
   },
   "request": "ChangeRoleRequest"
  },
  "PATCH /v1/team/:userId/notifications": {
   "tag": "notifications",
   "summary": "Change notification preferences",
   "responses": {
    "200": "TeamNotificationsUpdatedAnswer"
   },
   "request": "NotificationPreferencesPatchRequest"
  },
  "PATCH /v1/tickets/:id": {
   "tag": "tickets",
   "summary": "Change a ticket",
   "responses": {
    "200": "TicketsOneUpdatedAnswer"
   },
   "request": "TicketPatchRequest"
  },
  "POST /api/0/organizations/:org/artifactbundle/assemble": {
   "tag": "sourcemaps",
   "summary": "Assemble an artifact bundle",
   "responses": {
    "200": "OrganizationsArtifactbundleAssembleResultAnswer"
   },
   "request": "ArtifactBundleAssembleRequest",
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
    "200": "EnvelopeResultAnswer"
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
    "200": "StoreResultAnswer"
   },
   "request": "#binary",
   "security": "sentry",
   "aliases": [
    "/api/:projectNumber/store/"
   ],
   "errorSchema": "SentryError"
  },
  "POST /v1/admin/backfill-signatures": {
   "tag": "admin",
   "summary": "Superadmin: backfill-signatures",
   "responses": {
    "2XX": "AdminBackfillSignaturesResultAnswer"
   },
   "security": "superadmin",
   "request": "AdminBackfillRequest",
   "requestOptional": true
  },
  "POST /v1/admin/customers": {
   "tag": "admin",
   "summary": "Superadmin: customers",
   "responses": {
    "2XX": "AdminCustomersResultAnswer"
   },
   "security": "superadmin",
   "request": "AdminCustomerCreateRequest",
   "requestOptional": true
  },
  "POST /v1/admin/customers/:orgId/team": {
   "tag": "admin",
   "summary": "Superadmin: customers/orgId/team",
   "responses": {
    "2XX": "AdminCustomersTeamResultAnswer"
   },
   "security": "superadmin",
   "request": "AdminTeamMemberRequest",
   "requestOptional": true
  },
  "POST /v1/admin/gdpr/delete-org": {
   "tag": "admin",
   "summary": "Superadmin: gdpr/delete-org",
   "responses": {
    "2XX": "AdminGdprDeleteOrgResultAnswer"
   },
   "security": "superadmin",
   "request": "AdminDeleteOrgRequest",
   "requestOptional": true
  },
  "POST /v1/admin/support/session": {
   "tag": "admin",
   "summary": "Open a support session",
   "responses": {
    "2XX": "AdminSupportSessionResultAnswer"
   },
   "request": "SupportSessionRequest"
  },
  "POST /v1/admin/waitlist/:id/approve": {
   "tag": "admin",
   "summary": "Superadmin: waitlist/id/approve",
   "responses": {
    "2XX": "AdminWaitlistApproveResultAnswer"
   },
   "security": "superadmin",
   "request": "WaitlistNoteRequest",
   "requestOptional": true
  },
  "POST /v1/admin/waitlist/:id/reject": {
   "tag": "admin",
   "summary": "Superadmin: waitlist/id/reject",
   "responses": {
    "2XX": "AdminWaitlistRejectResultAnswer"
   },
   "security": "superadmin",
   "request": "WaitlistNoteRequest",
   "requestOptional": true
  },
  "POST /v1/admin/waitlist/:id/resend": {
   "tag": "admin",
   "summary": "Superadmin: waitlist/id/resend",
   "responses": {
    "2XX": "AdminWaitlistResendResultAnswer"
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
   "request": "ClaimRequest"
  },
  "POST /v1/agent-work/claims/complete": {
   "tag": "agents",
   "summary": "Complete a claim",
   "responses": {
    "200": "ClaimEnvelope"
   },
   "request": "ClaimCompleteRequest",
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
   "request": "ClaimReleaseRequest",
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
   "request": "ClaimRenewRequest",
   "errors": [
    "409"
   ]
  },
  "POST /v1/agent-work/symbols/projects/:projectId/builds/:buildId/files": {
   "tag": "symbols",
   "summary": "Publish a symbol file",
   "responses": {
    "2XX": "AgentWorkSymbolsProjectsFilesOneAnswer"
   },
   "request": "#binary"
  },
  "POST /v1/agent-work/verification/challenges": {
   "tag": "verification",
   "summary": "Ask for a verification challenge",
   "responses": {
    "2XX": "AgentWorkVerificationChallengesResultAnswer"
   },
   "request": "VerificationLeaseRequest"
  },
  "POST /v1/agent-work/verification/devices": {
   "tag": "verification",
   "summary": "Enroll a verification device",
   "responses": {
    "2XX": "AgentWorkVerificationDevicesResultAnswer"
   },
   "request": "VerificationDeviceEnrollRequest"
  },
)catalogue",
    R"catalogue(  "POST /v1/agent-work/verification/devices/revoke": {
   "tag": "verification",
   "summary": "Revoke a device",
   "responses": {
    "2XX": "AgentWorkVerificationDevicesRevokeResultAnswer"
   },
   "request": "VerificationDeviceRevokeRequest"
  },
  "POST /v1/agent-work/verification/promote": {
   "tag": "verification",
)catalogue",
    R"catalogue(   "summary": "Promote a verified fix",
   "responses": {
    "2XX": "AgentWorkVerificationPromoteResultAnswer"
   },
   "request": "VerificationPromoteRequest"
  },
  "POST /v1/agent-work/verification/receipts": {
   "tag": "verification",
   "summary": "Submit a signed receipt",
   "responses": {
    "2XX": "AgentWorkVerificationReceiptsResultAnswer"
   },
   "request": "VerificationReceiptRequest"
  },
  "POST /v1/agent-work/verification/runners": {
   "tag": "verification",
   "summary": "Enroll a verification runner",
   "responses": {
    "2XX": "AgentWorkVerificationRunnersResultAnswer"
   },
   "request": "VerificationRunnerEnrollRequest"
  },
  "POST /v1/agent-work/verification/runners/revoke": {
   "tag": "verification",
   "summary": "Revoke a runner",
   "responses": {
    "2XX": "AgentWorkVerificationRunnersRevokeResultAnswer"
   },
   "request": "VerificationRunnerRevokeRequest"
  },
  "POST /v1/alerts/digests/:batchId/resolution": {
   "tag": "integrations",
   "summary": "Resolve an alert digest batch",
   "responses": {
    "200": "AlertsDigestsResolutionResultAnswer"
   },
   "request": "DigestResolutionRequest",
   "optional": true
  },
  "POST /v1/alerts/preview": {
   "tag": "integrations",
   "summary": "Preview alerts for a policy",
   "responses": {
    "200": "AlertsPreviewResultAnswer"
   },
   "request": "AlertPreviewRequest"
  },
  "POST /v1/applications/projects/:projectId": {
   "tag": "applications",
   "summary": "Register an application",
   "responses": {
    "2XX": "ApplicationsProjectsOneResultAnswer"
   },
   "request": "ApplicationCreateRequest"
  },
  "POST /v1/applications/projects/:projectId/:applicationId/builds": {
   "tag": "applications",
   "summary": "Register a build",
   "responses": {
    "2XX": "ApplicationsProjectsBuildsResultAnswer"
   },
   "request": "BuildCreateRequest"
  },
  "POST /v1/applications/projects/:projectId/:applicationId/installations": {
   "tag": "applications",
   "summary": "Register an installation",
   "responses": {
    "2XX": "ApplicationsProjectsInstallationsResultAnswer"
   },
   "request": "InstallationCreateRequest"
  },
  "POST /v1/auth/api-key-session": {
   "tag": "accounts",
   "summary": "Exchange a capture key for a short session",
   "responses": {
    "410": "Error"
   },
   "request": "OpenObject"
  },
  "POST /v1/auth/complete-signup": {
   "tag": "accounts",
   "summary": "Complete a signup from an approval",
   "responses": {
    "2XX": "AuthCompleteSignupResultAnswer"
   },
   "request": "CompleteSignupRequest"
  },
  "POST /v1/auth/data-delete/confirm": {
   "tag": "accounts",
   "summary": "Confirm account deletion",
   "responses": {
    "2XX": "AuthDataDeleteConfirmResultAnswer"
   },
   "request": "TokenRequest"
  },
  "POST /v1/auth/data-delete/request": {
   "tag": "accounts",
   "summary": "Request account deletion",
   "responses": {
    "2XX": "AuthDataDeleteRequestResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/auth/data-export": {
   "tag": "accounts",
   "summary": "Request a personal data export",
   "responses": {
    "2XX": "AuthDataExportResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/auth/forgot-password": {
   "tag": "accounts",
   "summary": "Ask for a password reset mail",
   "responses": {
    "200": "AuthForgotPasswordResultAnswer"
   },
   "request": "EmailRequest"
  },
  "POST /v1/auth/invitations/accept": {
   "tag": "accounts",
   "summary": "Accept an invitation",
   "responses": {
    "2XX": "AuthInvitationsAcceptResultAnswer"
   },
   "request": "AcceptInvitationRequest"
  },
  "POST /v1/auth/invitations/inspect": {
   "tag": "accounts",
   "summary": "Inspect an invitation token",
   "responses": {
    "200": "AuthInvitationsInspectResultAnswer"
   },
   "request": "TokenRequest"
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
   "request": "RefreshRequest"
  },
  "POST /v1/auth/register": {
   "tag": "accounts",
   "summary": "Register an account",
   "responses": {
    "2XX": "AuthRegisterResultAnswer"
   },
   "request": "RegisterRequest"
  },
  "POST /v1/auth/resend-verification": {
   "tag": "accounts",
   "summary": "Resend the verification mail",
   "responses": {
    "200": "AuthResendVerificationResultAnswer"
   },
   "request": "EmailRequest"
  },
  "POST /v1/auth/reset-password": {
   "tag": "accounts",
   "summary": "Reset the password with a mailed token",
   "responses": {
    "200": "AuthResetPasswordResultAnswer"
   },
   "request": "ResetPasswordRequest"
  },
  "POST /v1/auth/send-verification": {
   "tag": "accounts",
   "summary": "Send the email verification mail",
   "responses": {
    "200": "AuthSendVerificationResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/auth/switch-org": {
   "tag": "accounts",
   "summary": "Switch the session's organization",
   "responses": {
    "200": "AuthSwitchOrgResultAnswer"
   },
   "request": "SwitchOrgRequest"
  },
  "POST /v1/auth/verify-email": {
   "tag": "accounts",
   "summary": "Verify an email address",
   "responses": {
    "200": "AuthVerifyEmailResultAnswer"
   },
   "request": "TokenRequest"
  },
  "POST /v1/auth/waitlist": {
   "tag": "accounts",
   "summary": "Join the waitlist",
   "responses": {
    "2XX": "AuthWaitlistResultAnswer"
   },
   "request": "WaitlistRequest"
  },
  "POST /v1/billing/card-setup-session": {
   "tag": "operations",
   "summary": "Start a card setup",
   "responses": {
    "200": "BillingCardSetupSessionResultAnswer"
   },
   "request": "CardSetupRequest",
   "requestOptional": true
  },
  "POST /v1/billing/create-checkout-session": {
   "tag": "operations",
   "summary": "Start a checkout",
   "responses": {
    "200": "BillingCreateCheckoutSessionResultAnswer"
   },
   "request": "CheckoutRequest"
  },
  "POST /v1/billing/portal": {
   "tag": "operations",
   "summary": "Open the billing portal",
   "responses": {
    "200": "BillingPortalResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/billing/webhook": {
   "tag": "operations",
   "summary": "Payment provider webhook (signed)",
   "responses": {
    "200": "BillingWebhookResultAnswer"
   },
   "request": "#json"
  },
  "POST /v1/bugs": {
   "tag": "capture",
   "summary": "Report a bug (alias of /v1/ingest)",
   "responses": {
    "2XX": "BugsResultAnswer"
   },
   "request": "IngestRequest",
   "errors": [
    "402"
   ]
  },
  "POST /v1/bugs/:id/ack": {
   "tag": "agents",
   "summary": "Agent acknowledgement of a bug",
   "responses": {
    "200": "BugsAckResultAnswer"
   },
   "request": "BugAckRequest"
  },
  "POST /v1/bugs/:id/analyze": {
   "tag": "ai",
   "summary": "AI analysis of a bug",
   "responses": {
    "2XX": "BugsAnalyzeResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/bugs/:id/comments": {
   "tag": "triage",
   "summary": "Comment on a bug",
   "responses": {
    "2XX": "BugsCommentsResultAnswer"
   },
   "request": "BugCommentRequest"
  },
  "POST /v1/bugs/:id/events/:eventId/ai": {
   "tag": "ai",
   "summary": "AI assessment of an event",
   "responses": {
    "2XX": "BugsEventsAiResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/bugs/:id/notify-agent": {
   "tag": "agents",
   "summary": "Hand a bug to the coding agent",
   "responses": {
    "2XX": "BugsNotifyAgentResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/bugs/:id/watch": {
   "tag": "triage",
   "summary": "Watch a bug",
   "responses": {
    "200": "BugsWatchResultAnswer"
   }
  },
  "POST /v1/bugs/ai-summary": {
   "tag": "ai",
   "summary": "Attach an AI summary (alias)",
   "responses": {
    "2XX": "BugsAiSummaryResultAnswer"
   },
   "request": "AiSummaryRequest"
  },
  "POST /v1/bugs/manual": {
   "tag": "capture",
   "summary": "Create a bug by hand",
   "responses": {
    "2XX": "BugsManualResultAnswer"
   },
   "request": "ManualBugRequest"
  },
  "POST /v1/bugs/merge": {
   "tag": "triage",
   "summary": "Merge bugs",
   "responses": {
    "200": "BugsMergeResultAnswer"
   },
   "request": "BugMergeRequest"
  },
  "POST /v1/bugs/presence": {
   "tag": "capture",
   "summary": "Presence heartbeat (alias)",
   "responses": {
    "2XX": "IngestPresenceResultAnswer"
   },
   "request": "PresenceRequest"
  },
  "POST /v1/evidence/projects/:projectId/artifacts": {
   "tag": "evidence",
   "summary": "Reserve an artifact",
   "responses": {
    "2XX": "ArtifactEnvelope"
   },
   "request": "ArtifactReserveRequest",
   "security": "jwtOrAgent"
  },
  "POST /v1/ingest": {
   "tag": "capture",
   "summary": "Report a bug (capture key)",
   "responses": {
    "2XX": "IngestResultAnswer"
   },
   "request": "IngestRequest",
   "errors": [
    "402"
   ]
  },
  "POST /v1/ingest/ai-summary": {
   "tag": "ai",
   "summary": "Attach an AI summary (capture key)",
   "responses": {
    "2XX": "IngestAiSummaryResultAnswer"
   },
   "request": "AiSummaryRequest"
  },
  "POST /v1/ingest/presence": {
   "tag": "capture",
   "summary": "Presence heartbeat",
   "responses": {
    "2XX": "IngestPresenceResultAnswer"
   },
   "request": "PresenceRequest"
  },
  "POST /v1/integrations": {
   "tag": "integrations",
   "summary": "Create an integration or webhook",
   "responses": {
    "201": "IntegrationCreated"
   },
   "request": "IntegrationCreateRequest"
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
    "200": "IntegrationsRotateSecretResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/integrations/:id/test": {
   "tag": "integrations",
   "summary": "Send a test delivery",
   "responses": {
    "200": "IntegrationsTestResultAnswer"
   },
   "request": "OpenObject",
   "requestOptional": true
  },
  "POST /v1/mcp": {
   "tag": "agents",
   "summary": "Model Context Protocol (streamable HTTP, JSON-RPC)",
   "responses": {
    "200": "McpAnswer",
    "202": "#empty",
    "400": "JsonRpcError",
    "406": "JsonRpcError"
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
   "request": "AgentTokenCreateRequest"
  },
  "POST /v1/projects": {
   "tag": "projects",
   "summary": "Create a project",
   "responses": {
    "201": "Project"
   },
   "request": "ProjectCreateRequest"
  },
  "POST /v1/projects/:id/keys": {
   "tag": "projects",
   "summary": "Create a capture key",
   "responses": {
    "201": "CaptureKeyCreated"
   },
   "request": "CaptureKeyCreateRequest",
   "requestOptional": true
  },
  "POST /v1/projects/:id/test-event": {
   "tag": "capture",
   "summary": "Send a setup-check event",
   "responses": {
    "201": "ProjectsTestEventResultAnswer"
   },
   "request": "TestEventRequest",
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
    "2XX": "TicketsResultAnswer"
   },
   "request": "TicketCreateRequest"
  },
  "POST /v1/tickets/:id/move": {
   "tag": "tickets",
   "summary": "Move a ticket",
   "responses": {
    "200": "TicketsMoveResultAnswer"
   },
   "request": "TicketMoveRequest"
  },
  "PUT /v1/alerts/policy": {
   "tag": "integrations",
   "summary": "Replace the alert policy",
   "responses": {
    "200": "AlertsPolicyReplacedAnswer"
   },
   "request": "AlertPolicyRequest"
  },
  "PUT /v1/billing/budget": {
   "tag": "operations",
   "summary": "Change the monthly budget",
   "responses": {
    "200": "BillingBudgetReplacedAnswer"
   },
   "request": "BudgetPatchRequest"
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
    "200": "ProjectsAgentSettingsReplacedAnswer"
   },
   "request": "AgentSettingsRequest"
  },
  "PUT /v1/projects/:id/scrubbing": {
   "tag": "capture",
   "summary": "Replace scrubbing rules",
   "responses": {
    "200": "ProjectsScrubbingReplacedAnswer"
   },
   "request": "ScrubbingRequest"
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
